package org.irmi.monitors.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.irmi.monitors.ManualClock;
import org.irmi.monitors.SlidingWindow;
import org.irmi.sla.WindowConfig;
import org.irmi.monitors.WindowSnapshot;
import org.junit.jupiter.api.Test;

class BucketRingWindowTest {

    private static final long SECOND = 1_000_000_000L;

    private final ManualClock clock = new ManualClock();

    private BucketRingWindow window(Duration length, int buckets) {
        return new BucketRingWindow(WindowConfig.of(length, buckets), clock);
    }

    @Test
    void shouldReportEmptySnapshotWhenNothingRecorded() {
        WindowSnapshot s = window(Duration.ofSeconds(10), 10).snapshot();
        assertThat(s.count()).isZero();
        assertThat(s.min()).isZero();
        assertThat(s.max()).isZero();
        assertThat(s.ratePerSecond()).isZero();
        assertThat(s.mean()).isZero();
    }

    @Test
    void shouldAggregateCountSumMinMaxWhenSamplesInWindow() {
        BucketRingWindow w = window(Duration.ofSeconds(10), 10);
        w.record(5);
        clock.advanceMillis(1_500);
        w.record(1);
        w.record(9);
        WindowSnapshot s = w.snapshot();
        assertThat(s.count()).isEqualTo(3);
        assertThat(s.sum()).isEqualTo(15);
        assertThat(s.min()).isEqualTo(1);
        assertThat(s.max()).isEqualTo(9);
        assertThat(s.mean()).isEqualTo(5.0);
    }

    @Test
    void shouldDivideByCoveredTimeWhenComputingRates() {
        BucketRingWindow w = window(Duration.ofSeconds(10), 10);
        for (int i = 0; i < 20; i++) {
            w.record(100);
        }
        clock.advanceMillis(2_000);
        WindowSnapshot s = w.snapshot();
        assertThat(s.coveredNanos()).isEqualTo(2 * SECOND);
        assertThat(s.ratePerSecond()).isEqualTo(10.0);
        assertThat(s.sumPerSecond()).isEqualTo(1_000.0);
    }

    @Test
    void shouldCoverClosedBucketsPlusElapsedPartOfLiveBucketWhenWindowIsFull() {
        BucketRingWindow w = window(Duration.ofSeconds(10), 10);
        clock.advanceMillis(12_300);
        w.record(1);
        assertThat(w.snapshot().coveredNanos()).isEqualTo(9 * SECOND + 300_000_000L);
    }

    @Test
    void shouldEvictBucketWhenItLeavesTheWindow() {
        BucketRingWindow w = window(Duration.ofSeconds(10), 10);
        w.record(7); // epoch 0
        clock.advanceMillis(1_000);
        w.record(3); // epoch 1
        clock.advanceMillis(8_999); // 9.999 s: epoch 9, epochs 0..9 in window
        assertThat(w.snapshot().count()).isEqualTo(2);
        clock.advanceNanos(1_000_000); // 10.0 s: epoch 10, epoch 0 leaves
        WindowSnapshot s = w.snapshot();
        assertThat(s.count()).isEqualTo(1);
        assertThat(s.sum()).isEqualTo(3);
        assertThat(s.min()).isEqualTo(3);
        assertThat(s.max()).isEqualTo(3);
    }

    @Test
    void shouldForgetMaxWhenTheBucketHoldingItIsEvicted() {
        BucketRingWindow w = window(Duration.ofSeconds(4), 4);
        w.record(1_000);
        clock.advanceMillis(1_000);
        w.record(10);
        clock.advanceMillis(2_000);
        assertThat(w.snapshot().max()).isEqualTo(1_000);
        clock.advanceMillis(1_000);
        assertThat(w.snapshot().max()).isEqualTo(10);
        assertThat(w.snapshot().min()).isEqualTo(10);
    }

    @Test
    void shouldResetWhenIdleLongerThanTheWindow() {
        BucketRingWindow w = window(Duration.ofSeconds(10), 10);
        w.record(4);
        w.record(6);
        clock.advance(Duration.ofDays(3)); // a step-through would loop ~26 million buckets
        assertThat(w.snapshot().count()).isZero();
        w.record(2);
        WindowSnapshot s = w.snapshot();
        assertThat(s.count()).isEqualTo(1);
        assertThat(s.sum()).isEqualTo(2);
        assertThat(w.recomputeTotals()).containsExactly(1, 2);
    }

    @Test
    void shouldResetWhenIdleExactlyOneWindow() {
        BucketRingWindow w = window(Duration.ofSeconds(3), 3);
        w.record(4);
        clock.advanceMillis(3_000);
        assertThat(w.snapshot().count()).isZero();
    }

    @Test
    void shouldKeepOnlyTheLiveBucketWhenSingleBucket() {
        BucketRingWindow w = window(Duration.ofSeconds(1), 1);
        w.record(5);
        w.record(7);
        clock.advanceMillis(999);
        assertThat(w.snapshot().count()).isEqualTo(2);
        clock.advanceMillis(1);
        assertThat(w.snapshot().count()).isZero();
        w.record(1);
        clock.advanceMillis(1_000);
        w.record(8);
        WindowSnapshot s = w.snapshot();
        assertThat(s.count()).isEqualTo(1);
        assertThat(s.sum()).isEqualTo(8);
        assertThat(s.min()).isEqualTo(8);
        assertThat(w.recomputeTotals()).containsExactly(1, 8);
    }

    @Test
    void shouldWorkWhenWindowIsOneMillisecondInOneBucket() {
        BucketRingWindow w = window(Duration.ofMillis(1), 1);
        w.record(3);
        clock.advanceNanos(500_000);
        WindowSnapshot s = w.snapshot();
        assertThat(s.count()).isEqualTo(1);
        assertThat(s.ratePerSecond()).isCloseTo(2_000.0, within(1e-9));
        clock.advanceNanos(500_000);
        assertThat(w.snapshot().count()).isZero();
    }

    @Test
    void shouldNotTouchMinMaxWhenAddingBatches() {
        BucketRingWindow w = window(Duration.ofSeconds(10), 10);
        w.add(5, 50);
        WindowSnapshot s = w.snapshot();
        assertThat(s.count()).isEqualTo(5);
        assertThat(s.sum()).isEqualTo(50);
        assertThat(s.min()).isZero();
        assertThat(s.max()).isZero();
        w.record(3);
        assertThat(w.snapshot().min()).isEqualTo(3);
        assertThat(w.snapshot().max()).isEqualTo(3);
    }

    @Test
    void shouldRejectNegativeCountWhenAddingBatches() {
        BucketRingWindow w = window(Duration.ofSeconds(10), 10);
        assertThatThrownBy(() -> w.add(-1, 0)).hasMessage("count must be >= 0, was -1");
    }

    @Test
    void shouldUseGivenTimeWhenRecordingAt() {
        BucketRingWindow w = window(Duration.ofSeconds(2), 2);
        w.recordAt(clock.nanoTime(), 1);
        clock.advanceMillis(1_000);
        w.recordAt(clock.nanoTime(), 2);
        clock.advanceMillis(1_000);
        assertThat(w.snapshot().sum()).isEqualTo(2);
    }

    @Test
    void shouldBeCreatedThroughTheInterfaceFactory() {
        SlidingWindow w = SlidingWindow.of(WindowConfig.ofDefaults(), clock);
        w.record(1);
        assertThat(w.snapshot().count()).isEqualTo(1);
        assertThat(w.config()).isEqualTo(WindowConfig.ofDefaults());
    }

    /** Invariant: the running totals always equal the bucket sums and an exact reference model. */
    @Test
    void shouldMatchBucketSumsAndReferenceModelWhenTimeMovesRandomly() {
        for (int buckets : new int[] {1, 2, 3, 7, 10}) {
            ManualClock c = new ManualClock(12_345, 0);
            long bucketNanos = 250_000_000L;
            BucketRingWindow w = new BucketRingWindow(WindowConfig.of(Duration.ofNanos(bucketNanos * buckets), buckets), c);
            List<long[]> model = new ArrayList<>(); // {epoch, value}
            Random random = new Random(42 + buckets);
            for (int step = 0; step < 3_000; step++) {
                int op = random.nextInt(10);
                if (op < 6) {
                    long v = random.nextInt(1_000) - 200;
                    w.record(v);
                    model.add(new long[] {(c.nanoTime() - 12_345) / bucketNanos, v});
                } else if (op < 9) {
                    c.advanceNanos(random.nextInt(4) == 0 ? random.nextLong(bucketNanos * (buckets + 2)) : random.nextLong(bucketNanos / 2));
                } else {
                    WindowSnapshot s = w.snapshot();
                    long epoch = (c.nanoTime() - 12_345) / bucketNanos;
                    long count = 0;
                    long sum = 0;
                    long min = Long.MAX_VALUE;
                    long max = Long.MIN_VALUE;
                    for (long[] m : model) {
                        if (m[0] > epoch - buckets) {
                            count++;
                            sum += m[1];
                            min = Math.min(min, m[1]);
                            max = Math.max(max, m[1]);
                        }
                    }
                    assertThat(s.count()).as("count, %d buckets, step %d", buckets, step).isEqualTo(count);
                    assertThat(s.sum()).as("sum, %d buckets, step %d", buckets, step).isEqualTo(sum);
                    assertThat(s.min()).isEqualTo(count == 0 ? 0 : min);
                    assertThat(s.max()).isEqualTo(count == 0 ? 0 : max);
                    assertThat(w.recomputeTotals()).containsExactly(s.count(), s.sum());
                }
            }
        }
    }
}
