package org.irmi.monitors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.irmi.sla.WindowConfig;

class OperationLatencyMonitorTest {

    private final ManualClock clock = new ManualClock();
    private final WindowConfig tenSeconds = WindowConfig.of(Duration.ofSeconds(10), 10);

    @Test
    void shouldKeepADistributionPerOperationAndInTotal() {
        OperationLatencyMonitor m = OperationLatencyMonitor.of(tenSeconds, clock);
        for (int i = 1; i <= 100; i++) {
            m.record("quote", i * 1_000L);
        }
        m.record("buy", 50_000_000L);
        assertThat(m.snapshot("quote").count()).isEqualTo(100);
        assertThat((double) m.snapshot("quote").p99Nanos()).isCloseTo(99_000, within(99_000 * 0.01));
        assertThat((double) m.snapshot("buy").maxNanos()).isCloseTo(50_000_000, within(50_000_000 * 0.01));
        assertThat(m.total().count()).isEqualTo(101);
        assertThat(m.snapshot("never")).isEqualTo(LatencySnapshot.EMPTY);
        clock.advanceMillis(10_000);
        assertThat(m.total().count()).isZero();
    }

    @Test
    void shouldUseTheOverflowOperationWhenTheTableIsFull() {
        OperationLatencyMonitor m = OperationLatencyMonitor.of(tenSeconds, clock, 2); // "*" + 1
        m.record("a", 1_000);
        m.record("b", 1_000);
        m.record("c", 1_000);
        assertThat(m.snapshots()).containsOnlyKeys("*", "a");
        assertThat(m.snapshot("*").count()).isEqualTo(2);
    }

    @Test
    void shouldReuseOneSnapshotForTheGaugesWithinTheirPeriod() {
        MeterRegistry registry = new SimpleMeterRegistry();
        OperationLatencyMonitor m = OperationLatencyMonitor.of(tenSeconds, clock);
        m.metrics().bindTo(registry);
        m.record("quote", 2_000_000L);
        assertThat(registry.get("irmi.latency.count").tag("operation", "quote").gauge().value()).isEqualTo(1.0);
        m.record("quote", 2_000_000L);
        clock.advanceMillis(99);
        assertThat(registry.get("irmi.latency.count").tag("operation", "quote").gauge().value()).isEqualTo(1.0);
        clock.advanceMillis(1);
        assertThat(registry.get("irmi.latency.count").tag("operation", "quote").gauge().value()).isEqualTo(2.0);
        assertThat(registry.get("irmi.latency.p99").tag("operation", "quote").gauge().value()).isCloseTo(0.002, within(0.002 * 0.01));
        assertThat(registry.get("irmi.latency.max").tags().gauges()).hasSize(3); // total, "*", "quote"
    }
}
