package org.irmi.monitors.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.irmi.monitors.ManualClock;
import org.irmi.sla.WindowConfig;
import org.irmi.monitors.WindowSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BucketRingWindowConcurrencyTest {

    private static final int THREADS = 4;
    private static final int PER_THREAD = 50_000;

    private final ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    @Test
    void shouldCountEverySampleWhenRecordersRaceWithinOneBucket() throws Exception {
        ManualClock clock = new ManualClock();
        BucketRingWindow w = new BucketRingWindow(WindowConfig.of(Duration.ofSeconds(10), 10), clock);
        run(() -> {
            for (int i = 0; i < PER_THREAD; i++) {
                w.record(i % 7);
            }
        }, THREADS);
        WindowSnapshot s = w.snapshot();
        assertThat(s.count()).isEqualTo((long) THREADS * PER_THREAD);
        long perThreadSum = 0;
        for (int i = 0; i < PER_THREAD; i++) {
            perThreadSum += i % 7;
        }
        assertThat(s.sum()).isEqualTo(THREADS * perThreadSum);
        assertThat(s.max()).isEqualTo(6);
    }

    @Test
    void shouldNeverDriftFromBucketSumsWhenRecordersRaceWithRotationsAndSnapshots() throws Exception {
        ManualClock clock = new ManualClock();
        BucketRingWindow w = new BucketRingWindow(WindowConfig.of(Duration.ofMillis(40), 4), clock);
        List<Runnable> tasks = new ArrayList<>();
        for (int t = 0; t < THREADS - 1; t++) {
            tasks.add(() -> {
                for (int i = 0; i < PER_THREAD; i++) {
                    w.record(1);
                }
            });
        }
        tasks.add(() -> {
            for (int i = 0; i < 20_000; i++) {
                clock.advanceNanos(100_000); // 0.1 ms: a rotation every 100 steps
                if (i % 50 == 0) {
                    WindowSnapshot s = w.snapshot();
                    assertThat(s.count()).isBetween(0L, (long) THREADS * PER_THREAD);
                }
            }
        });
        runAll(tasks);
        WindowSnapshot s = w.snapshot();
        long[] recomputed = w.recomputeTotals();
        assertThat(recomputed).containsExactly(s.count(), s.sum());
        assertThat(s.count()).isEqualTo(s.sum()); // every value was 1
        clock.advanceMillis(40);
        assertThat(w.snapshot().count()).isZero();
        assertThat(w.recomputeTotals()).containsExactly(0, 0);
    }

    private void run(Runnable task, int copies) throws Exception {
        List<Runnable> tasks = new ArrayList<>();
        for (int i = 0; i < copies; i++) {
            tasks.add(task);
        }
        runAll(tasks);
    }

    private void runAll(List<Runnable> tasks) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        for (Runnable r : tasks) {
            futures.add(pool.submit(() -> {
                start.await();
                r.run();
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : futures) {
            f.get(30, TimeUnit.SECONDS);
        }
    }
}
