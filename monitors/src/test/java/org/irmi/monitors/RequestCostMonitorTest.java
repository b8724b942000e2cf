package org.irmi.monitors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.irmi.sla.WindowConfig;

class RequestCostMonitorTest {

    private final ManualClock clock = new ManualClock();
    private final WindowConfig tenSeconds = WindowConfig.of(Duration.ofSeconds(10), 10);

    @Test
    void shouldAccountARequestToItsOperationWhenRecorded() {
        RequestCostMonitor m = RequestCostMonitor.of(tenSeconds, clock, 16, 16);
        m.record("obj", "buy", "10.0.0.1", 40_000, 2_048);
        CostSnapshot buy = m.operation("buy");
        assertThat(buy.requests()).isEqualTo(1);
        assertThat(buy.cpuNanosMax()).isEqualTo(40_000);
        assertThat(buy.allocatedBytesMean()).isEqualTo(2_048.0);
    }

    @Test
    void shouldAggregatePerOperationAndPerStreamWhenClientsDiffer() {
        RequestCostMonitor m = RequestCostMonitor.of(tenSeconds, clock, 16, 16);
        m.record("obj", "quote", "a", 1_000, 100);
        m.record("obj", "quote", "a", 3_000, 300);
        m.record("obj", "quote", "b", 50_000, 1_000_000);
        clock.advanceMillis(1_000);
        CostSnapshot quote = m.operation("quote");
        assertThat(quote.requests()).isEqualTo(3);
        assertThat(quote.cpuNanosMean()).isCloseTo(18_000.0, within(1e-9));
        assertThat(quote.cpuNanosPerSecond()).isCloseTo(54_000.0, within(1e-9));
        CostSnapshot a = m.stream(new StreamKey("obj", "quote", "a"));
        CostSnapshot b = m.stream(new StreamKey("obj", "quote", "b"));
        assertThat(a.requests()).isEqualTo(2);
        assertThat(a.allocatedBytesMean()).isEqualTo(200.0);
        assertThat(b.allocatedBytesMax()).isEqualTo(1_000_000);
        assertThat(m.total().requests()).isEqualTo(3);
    }

    @Test
    void shouldUseTheOverflowStreamWhenTheTableIsFull() {
        RequestCostMonitor m = RequestCostMonitor.of(tenSeconds, clock, 3, 16); // overflow + 2
        m.record("o", "op", "c1", 1, 1);
        m.record("o", "op", "c2", 1, 1);
        m.record("o", "op", "c3", 1, 1);
        m.record("o", "op", "c4", 1, 1);
        assertThat(m.streams()).containsOnlyKeys(StreamKey.OVERFLOW, new StreamKey("o", "op", "c1"), new StreamKey("o", "op", "c2"));
        assertThat(m.stream(StreamKey.OVERFLOW).requests()).isEqualTo(2);
    }

    @Test
    void shouldEvictIdleStreamsAndReuseTheirSlotsWhenWindowPasses() {
        RequestCostMonitor m = RequestCostMonitor.of(tenSeconds, clock, 2, 16); // overflow + 1
        m.record("o", "op", "old", 1, 1);
        clock.advanceMillis(10_000);
        assertThat(m.streams()).containsOnlyKeys(StreamKey.OVERFLOW);
        m.record("o", "op", "new", 1, 1);
        assertThat(m.stream(new StreamKey("o", "op", "new")).requests()).isEqualTo(1);
        assertThat(m.stream(StreamKey.OVERFLOW).requests()).isZero();
    }

    @Test
    void shouldUseTheOverflowOperationWhenTooManyOperations() {
        RequestCostMonitor m = RequestCostMonitor.of(tenSeconds, clock, 16, 2); // "*" + 1
        m.record("o", "a", "c", 1, 1);
        m.record("o", "b", "c", 1, 1);
        assertThat(m.operations()).containsOnlyKeys("*", "a");
        assertThat(m.operation("*").requests()).isEqualTo(1);
    }

    @Test
    void shouldCountEveryRequestButAverageCpuOverTheMeasuredOnesWhenCpuIsSampled() {
        RequestCostMonitor m = RequestCostMonitor.of(tenSeconds, clock, 16, 16);
        m.record("o", "quote", "c", 4_000, 100);
        m.record("o", "quote", "c", -1, 100);
        m.record("o", "quote", "c", -1, 100);
        m.record("o", "quote", "c", 2_000, 100);
        clock.advanceMillis(1_000);
        CostSnapshot q = m.operation("quote");
        assertThat(q.requests()).isEqualTo(4);
        assertThat(q.cpuNanosMean()).isEqualTo(3_000.0);
        assertThat(q.cpuNanosMax()).isEqualTo(4_000);
        assertThat(q.cpuNanosPerSecond()).isEqualTo(3_000.0 * q.requestsPerSecond());
        assertThat(q.allocatedBytesMean()).isEqualTo(100.0);
    }

    @Test
    void shouldCountTheRequestWithZeroCpuWhenNothingWasMeasured() {
        RequestCostMonitor m = RequestCostMonitor.of(tenSeconds, clock, 16, 16);
        m.record("o", "op", "c", -1, -1);
        assertThat(m.total().requests()).isEqualTo(1);
        assertThat(m.total().cpuNanosMax()).isZero();
    }
}
