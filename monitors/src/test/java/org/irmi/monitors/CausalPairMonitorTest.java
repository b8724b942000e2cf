package org.irmi.monitors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class CausalPairMonitorTest {

    private final ManualClock clock = new ManualClock();
    private final WindowConfig tenSeconds = WindowConfig.of(Duration.ofSeconds(10), 10);

    @Test
    void shouldEstimateQueueGrowthWhenOutgoingLagsIncoming() {
        CausalPairMonitor m = CausalPairMonitor.of(List.of(CausalPair.of("events", "submit", "forward")), tenSeconds, clock);
        for (int second = 0; second < 5; second++) {
            for (int i = 0; i < 100; i++) {
                m.recordIncoming("submit");
            }
            for (int i = 0; i < 60; i++) {
                m.recordOutgoing("forward");
            }
            clock.advanceMillis(1_000);
        }
        PairSnapshot s = m.snapshot("events");
        assertThat(s.incomingPerSecond()).isCloseTo(100.0, within(1e-9));
        assertThat(s.outgoingPerSecond()).isCloseTo(60.0, within(1e-9));
        assertThat(s.queueGrowthPerSecond()).isCloseTo(40.0, within(1e-9));
        assertThat(s.estimatedQueueLength()).isEqualTo(200.0);
        assertThat(s.measuredQueueLength()).isEmpty();
    }

    @Test
    void shouldMultiplyIncomingByFanOutWhenOneCallCausesSeveral() {
        CausalPairMonitor m = CausalPairMonitor.of(List.of(new CausalPair("fan", "in", "out", 3.0)), tenSeconds, clock);
        for (int i = 0; i < 10; i++) {
            m.recordIncoming("in");
        }
        for (int i = 0; i < 25; i++) {
            m.recordOutgoing("out");
        }
        clock.advanceMillis(1_000);
        PairSnapshot s = m.snapshot("fan");
        assertThat(s.queueGrowthPerSecond()).isCloseTo(5.0, within(1e-9));
        assertThat(s.estimatedQueueLength()).isEqualTo(5.0);
    }

    @Test
    void shouldMeasureFromLowWaterWhenOutgoingRanAheadEarlier() {
        CausalPairMonitor m = CausalPairMonitor.of(List.of(CausalPair.of("p", "in", "out")), tenSeconds, clock);
        for (int i = 0; i < 30; i++) {
            m.recordOutgoing("out"); // calls with another cause
        }
        assertThat(m.snapshot("p").estimatedQueueLength()).isZero();
        for (int i = 0; i < 12; i++) {
            m.recordIncoming("in");
        }
        assertThat(m.snapshot("p").estimatedQueueLength()).isEqualTo(12.0);
    }

    @Test
    void shouldReadTheRegisteredGaugeWhenApplicationReportsItsQueue() {
        CausalPairMonitor m = CausalPairMonitor.of(List.of(CausalPair.of("p", "in", "out")), tenSeconds, clock);
        AtomicLong queue = new AtomicLong(17);
        m.registerQueueGauge("p", queue::get);
        assertThat(m.snapshot("p").measuredQueueLength()).hasValue(17);
        queue.set(3);
        assertThat(m.snapshot("p").measuredQueueLength()).hasValue(3);
    }

    @Test
    void shouldFeedEveryPairWhenOperationsAreShared() {
        CausalPairMonitor m = CausalPairMonitor.of(List.of(CausalPair.of("a", "in", "x"), CausalPair.of("b", "in", "y")), tenSeconds, clock);
        m.recordIncoming("in");
        m.recordIncoming("unrelated");
        m.recordOutgoing("y");
        clock.advanceMillis(1_000);
        assertThat(m.snapshots()).extracting(PairSnapshot::estimatedQueueLength).containsExactly(1.0, 0.0);
    }

    @Test
    void shouldForgetRatesWhenWindowPasses() {
        CausalPairMonitor m = CausalPairMonitor.of(List.of(CausalPair.of("p", "in", "out")), tenSeconds, clock);
        m.recordIncoming("in");
        clock.advanceMillis(10_000);
        assertThat(m.snapshot("p").incomingPerSecond()).isZero();
        assertThat(m.snapshot("p").estimatedQueueLength()).isEqualTo(1.0);
    }

    @Test
    void shouldNameTheConfiguredPairsWhenPairIsUnknown() {
        CausalPairMonitor m = CausalPairMonitor.of(List.of(CausalPair.of("p", "in", "out")), tenSeconds, clock);
        assertThatThrownBy(() -> m.snapshot("q")).hasMessage("no causal pair named 'q'; configured pairs: [p]");
    }

    @Test
    void shouldRejectDuplicateNamesAndBadFanOut() {
        assertThatThrownBy(() -> CausalPairMonitor.of(List.of(CausalPair.of("p", "a", "b"), CausalPair.of("p", "c", "d")), tenSeconds, clock))
                .hasMessageContaining("'p' is used twice");
        assertThatThrownBy(() -> new CausalPair("p", "a", "b", 0)).hasMessageContaining("fanOut of causal pair 'p' must be a finite number > 0");
        assertThatThrownBy(() -> CausalPair.of(" ", "a", "b")).hasMessage("causal pair name must not be blank");
    }
}
