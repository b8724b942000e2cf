package org.irmi.monitors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;

import com.sun.management.GarbageCollectionNotificationInfo;
import org.junit.jupiter.api.Test;
import org.irmi.sla.WindowConfig;

class LocalResourceMonitorTest {

    private final ManualClock clock = new ManualClock();
    private final FakeProbe probe = new FakeProbe();
    private final WindowConfig tenSeconds = WindowConfig.of(Duration.ofSeconds(10), 10);

    @Test
    void shouldReportCoresUsedWhenCpuTimeGrows() {
        LocalResourceMonitor m = LocalResourceMonitor.of(tenSeconds, clock, probe);
        for (int i = 0; i < 4; i++) {
            clock.advanceMillis(1_000);
            probe.cpuNanos.addAndGet(1_500_000_000L); // 1.5 cores
            m.sample();
        }
        LocalResourceSnapshot s = m.snapshot();
        assertThat(s.processCpuCores()).isCloseTo(1.5, within(1e-9));
        assertThat(s.processCpuFraction()).isCloseTo(0.375, within(1e-9));
    }

    @Test
    void shouldKeepOnlyTheWindowsShareWhenSamplesAreFartherApartThanTheWindow() {
        LocalResourceMonitor m = LocalResourceMonitor.of(tenSeconds, clock, probe);
        clock.advanceMillis(40_000);
        probe.cpuNanos.addAndGet(40_000_000_000L); // one core busy for 40 s
        LocalResourceSnapshot s = m.snapshot();
        assertThat(s.processCpuCores()).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void shouldCountCollectionsAndTheirTimeWhenGcNotified() {
        LocalResourceMonitor m = LocalResourceMonitor.of(tenSeconds, clock, probe);
        m.onGarbageCollection(20_000_000L, 300);
        clock.advanceMillis(1_000);
        m.onGarbageCollection(30_000_000L, 200);
        clock.advanceMillis(1_000);
        LocalResourceSnapshot s = m.snapshot();
        assertThat(s.gcCount()).isEqualTo(2);
        assertThat(s.gcTimeNanos()).isEqualTo(50_000_000L);
        assertThat(s.gcTimeFraction()).isCloseTo(0.025, within(1e-12));
        assertThat(s.gcPerSecond()).isCloseTo(1.0, within(1e-12));
        assertThat(s.heapAfterGcBytes()).isEqualTo(200);
        clock.advanceMillis(9_000);
        assertThat(m.snapshot().gcCount()).isZero();
    }

    @Test
    void shouldReadInstantValuesFromTheProbe() {
        LocalResourceMonitor m = LocalResourceMonitor.of(tenSeconds, clock, probe);
        LocalResourceSnapshot s = m.snapshot();
        assertThat(s.heapUsedBytes()).isEqualTo(600);
        assertThat(s.heapMaxBytes()).isEqualTo(1_000);
        assertThat(s.heapPressure()).isEqualTo(0.6);
        assertThat(s.liveThreads()).isEqualTo(42);
        assertThat(s.systemLoadAverage()).isEqualTo(1.25);
    }

    @Test
    void shouldSumHandOffQueuesWhenSeveralAreRegistered() {
        LocalResourceMonitor m = LocalResourceMonitor.of(tenSeconds, clock, probe);
        AtomicLong dispatch = new AtomicLong(5);
        m.registerHandOffQueue("dispatch", dispatch::get);
        m.registerHandOffQueue("reply", () -> 7);
        assertThat(m.snapshot().handOffQueueLength()).isEqualTo(12);
        dispatch.set(0);
        m.unregisterHandOffQueue("reply");
        assertThat(m.snapshot().handOffQueueLength()).isZero();
        assertThat(m.handOffQueueLength("reply")).isEqualTo(-1);
    }

    @Test
    void shouldReceiveRealGcNotificationsWhenStarted() throws Exception {
        try (LocalResourceMonitor m = LocalResourceMonitor.of(tenSeconds, clock).start()) {
            // Our listener is registered after the monitor's; emitters call listeners in order on one thread.
            CountDownLatch seen = new CountDownLatch(1);
            NotificationListener latch = (n, h) -> {
                if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
                    seen.countDown();
                }
            };
            List<NotificationEmitter> emitters = new ArrayList<>();
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                if (gc instanceof NotificationEmitter e) {
                    e.addNotificationListener(latch, null, null);
                    emitters.add(e);
                }
            }
            try {
                System.gc();
                assertThat(seen.await(20, TimeUnit.SECONDS)).as("a GC notification within 20 s").isTrue();
            } finally {
                for (NotificationEmitter e : emitters) {
                    e.removeNotificationListener(latch);
                }
            }
            LocalResourceSnapshot s = m.snapshot();
            assertThat(s.gcCount()).isGreaterThanOrEqualTo(1);
            assertThat(s.heapAfterGcBytes()).isPositive();
            assertThat(s.liveThreads()).isPositive();
            assertThat(s.heapMaxBytes()).isPositive();
        }
    }

    static final class FakeProbe implements ResourceProbe {
        final AtomicLong cpuNanos = new AtomicLong(1_000_000_000L);

        @Override
        public long processCpuNanos() {
            return cpuNanos.get();
        }

        @Override
        public double systemLoadAverage() {
            return 1.25;
        }

        @Override
        public long heapUsedBytes() {
            return 600;
        }

        @Override
        public long heapMaxBytes() {
            return 1_000;
        }

        @Override
        public int liveThreads() {
            return 42;
        }

        @Override
        public int availableProcessors() {
            return 4;
        }
    }
}
