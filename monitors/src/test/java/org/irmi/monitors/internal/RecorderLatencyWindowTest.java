package org.irmi.monitors.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.irmi.monitors.LatencySnapshot;
import org.irmi.monitors.LatencyWindow;
import org.irmi.monitors.ManualClock;
import org.irmi.sla.WindowConfig;
import org.junit.jupiter.api.Test;

class RecorderLatencyWindowTest {

    private final ManualClock clock = new ManualClock();

    private LatencyWindow window(Duration length, int buckets) {
        return LatencyWindow.of(WindowConfig.of(length, buckets), clock);
    }

    @Test
    void shouldReportPercentilesWhenSamplesRecorded() {
        LatencyWindow w = window(Duration.ofSeconds(10), 10);
        for (int i = 1; i <= 1_000; i++) {
            w.recordNanos(i * 1_000L); // 1 us .. 1 ms
        }
        LatencySnapshot s = w.snapshot();
        assertThat(s.count()).isEqualTo(1_000);
        assertThat((double) s.p50Nanos()).isCloseTo(500_000, within(500_000 * 0.01));
        assertThat((double) s.p99Nanos()).isCloseTo(990_000, within(990_000 * 0.01));
        assertThat((double) s.maxNanos()).isCloseTo(1_000_000, within(1_000_000 * 0.01));
        assertThat(s.minNanos()).isEqualTo(1_000);
    }

    @Test
    void shouldDropOldSamplesWhenTheirBucketIsEvicted() {
        LatencyWindow w = window(Duration.ofSeconds(2), 2);
        w.recordNanos(5_000_000);
        clock.advanceMillis(1_000);
        w.recordNanos(1_000);
        assertThat(w.snapshot().count()).isEqualTo(2);
        clock.advanceMillis(1_000);
        LatencySnapshot s = w.snapshot();
        assertThat(s.count()).isEqualTo(1);
        assertThat(s.maxNanos()).isLessThan(1_100);
    }

    @Test
    void shouldAccountSamplesToTheirBucketWhenNoSnapshotIsTakenBetweenBuckets() {
        LatencyWindow w = window(Duration.ofSeconds(3), 3);
        w.recordNanos(1_000); // epoch 0
        clock.advanceMillis(1_000);
        w.recordNanos(2_000); // epoch 1: rotates first
        clock.advanceMillis(2_000); // epoch 3: epoch 0 gone, epoch 1 still in
        LatencySnapshot s = w.snapshot();
        assertThat(s.count()).isEqualTo(1);
        assertThat(s.minNanos()).isBetween(1_990L, 2_010L);
    }

    @Test
    void shouldResetWhenIdleLongerThanTheWindow() {
        LatencyWindow w = window(Duration.ofSeconds(10), 10);
        w.recordNanos(1_000);
        clock.advance(Duration.ofHours(5));
        assertThat(w.snapshot()).isEqualTo(LatencySnapshot.EMPTY);
        w.recordNanos(3_000);
        assertThat(w.snapshot().count()).isEqualTo(1);
    }

    @Test
    void shouldKeepOnlyTheLiveBucketWhenSingleBucket() {
        LatencyWindow w = window(Duration.ofSeconds(1), 1);
        w.recordNanos(1_000);
        w.recordNanos(2_000);
        assertThat(w.snapshot().count()).isEqualTo(2);
        clock.advanceMillis(1_000);
        w.recordNanos(7_000);
        LatencySnapshot s = w.snapshot();
        assertThat(s.count()).isEqualTo(1);
        assertThat(s.minNanos()).isBetween(6_900L, 7_100L);
    }

    @Test
    void shouldClampWhenValueIsNegativeOrHuge() {
        LatencyWindow w = window(Duration.ofSeconds(1), 1);
        w.recordNanos(-5);
        w.recordNanos(Long.MAX_VALUE);
        LatencySnapshot s = w.snapshot();
        assertThat(s.count()).isEqualTo(2);
        assertThat(s.minNanos()).isZero();
        assertThat((double) s.maxNanos()).isCloseTo(LatencyWindow.HIGHEST_TRACKABLE_NANOS, within(LatencyWindow.HIGHEST_TRACKABLE_NANOS * 0.01));
    }

    /** Invariant: many snapshots and rotations recycle interval histograms without losing or doubling samples. */
    @Test
    void shouldCountEachSampleOnceWhenSnapshotsInterleaveWithRecording() {
        LatencyWindow w = window(Duration.ofSeconds(5), 5);
        long expected = 0;
        for (int i = 0; i < 500; i++) {
            w.recordNanos(10_000 + i);
            expected++;
            if (i % 3 == 0) {
                assertThat(w.snapshot().count()).isEqualTo(expected);
            }
            if (i % 100 == 99) {
                clock.advanceMillis(1_000);
            }
        }
        // Epochs 0..4 hold 100 samples each; the clock is now at 5 s, so epoch 0 has left.
        assertThat(w.snapshot().count()).isEqualTo(400);
        clock.advanceMillis(1_000);
        assertThat(w.snapshot().count()).isEqualTo(300);
    }

    @Test
    void shouldCountEverySampleWhenRecordersRaceWithSnapshots() throws Exception {
        LatencyWindow w = window(Duration.ofSeconds(10), 10);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 30_000; i++) {
                        w.recordNanos(1_000 + i);
                    }
                }));
            }
            futures.add(pool.submit(() -> {
                for (int i = 0; i < 200; i++) {
                    assertThat(w.snapshot().count()).isBetween(0L, 90_000L);
                }
            }));
            for (Future<?> f : futures) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(w.snapshot().count()).isEqualTo(90_000);
    }
}
