package org.irmi.monitors;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.irmi.sla.WindowConfig;

class RequestCostMonitorConcurrencyTest {

    @Test
    void shouldNeverTrackMoreStreamsThanTheBoundWhenThreadsRaceWithNewClients() throws Exception {
        ManualClock clock = new ManualClock();
        int maxStreams = 50;
        RequestCostMonitor m = RequestCostMonitor.of(WindowConfig.of(Duration.ofSeconds(10), 10), clock,
                maxStreams, 8);
        int threads = 4;
        int perThread = 5_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        m.record("obj", "op", "client-" + id + "-" + (i % 200), 10, 1);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : futures) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        var streams = m.streams();
        assertThat(streams).hasSizeLessThanOrEqualTo(maxStreams);
        long accounted = streams.values().stream().mapToLong(CostSnapshot::requests).sum();
        assertThat(accounted).isEqualTo((long) threads * perThread);
        assertThat(m.total().requests()).isEqualTo((long) threads * perThread);
        assertThat(m.operation("op").requests()).isEqualTo((long) threads * perThread);
    }
}
