package org.irmi.monitors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.irmi.sla.WindowConfig;

class CausalPairMonitorTest {

    private final ManualClock clock = new ManualClock();
    private final WindowConfig tenSeconds = WindowConfig.of(Duration.ofSeconds(10), 10);

    @Test
    void shouldEstimateQueueGrowthWhenOutgoingLagsIncoming() {
        CausalPairMonitor m = CausalPairMonitor.of(Map.of("events", 1.0), tenSeconds, clock);
        for (int second = 0; second < 5; second++) {
            for (int i = 0; i < 100; i++) {
                m.recordIncoming("events");
            }
            for (int i = 0; i < 60; i++) {
                m.recordOutgoing("events");
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
        CausalPairMonitor m = CausalPairMonitor.of(Map.of("fan", 3.0), tenSeconds, clock);
        for (int i = 0; i < 10; i++) {
            m.recordIncoming("fan");
        }
        for (int i = 0; i < 25; i++) {
            m.recordOutgoing("fan");
        }
        clock.advanceMillis(1_000);
        PairSnapshot s = m.snapshot("fan");
        assertThat(s.queueGrowthPerSecond()).isCloseTo(5.0, within(1e-9));
        assertThat(s.estimatedQueueLength()).isEqualTo(5.0);
    }

    @Test
    void shouldMeasureFromLowWaterWhenOutgoingRanAheadEarlier() {
        CausalPairMonitor m = CausalPairMonitor.of(Map.of("p", 1.0), tenSeconds, clock);
        for (int i = 0; i < 30; i++) {
            m.recordOutgoing("p"); // calls with another cause
        }
        assertThat(m.snapshot("p").estimatedQueueLength()).isZero();
        for (int i = 0; i < 12; i++) {
            m.recordIncoming("p");
        }
        assertThat(m.snapshot("p").estimatedQueueLength()).isEqualTo(12.0);
    }

    @Test
    void shouldReadTheRegisteredGaugeWhenApplicationReportsItsQueue() {
        CausalPairMonitor m = CausalPairMonitor.of(Map.of("p", 1.0), tenSeconds, clock);
        AtomicLong queue = new AtomicLong(17);
        m.registerQueueGauge("p", queue::get);
        assertThat(m.snapshot("p").measuredQueueLength()).hasValue(17);
        queue.set(3);
        assertThat(m.snapshot("p").measuredQueueLength()).hasValue(3);
    }

    @Test
    void shouldKeepPairsApartAndInOrderWhenSeveralAreConfigured() {
        CausalPairMonitor m = CausalPairMonitor.of(bThenA(), tenSeconds, clock);
        m.recordIncoming("a");
        m.recordOutgoing("b");
        clock.advanceMillis(1_000);
        assertThat(m.pairNames()).containsExactly("b", "a");
        assertThat(m.snapshots()).extracting(PairSnapshot::pair).containsExactly("b", "a");
        assertThat(m.snapshots()).extracting(PairSnapshot::estimatedQueueLength).containsExactly(0.0, 2.0);
        assertThat(m.snapshot("a").fanOut()).isEqualTo(2.0);
    }

    @Test
    void shouldForgetRatesWhenWindowPasses() {
        CausalPairMonitor m = CausalPairMonitor.of(Map.of("p", 1.0), tenSeconds, clock);
        m.recordIncoming("p");
        clock.advanceMillis(10_000);
        assertThat(m.snapshot("p").incomingPerSecond()).isZero();
        assertThat(m.snapshot("p").estimatedQueueLength()).isEqualTo(1.0);
    }

    @Test
    void shouldNameTheConfiguredPairsWhenPairIsUnknown() {
        CausalPairMonitor m = CausalPairMonitor.of(Map.of("p", 1.0), tenSeconds, clock);
        assertThatThrownBy(() -> m.snapshot("q")).hasMessage("no causal pair named 'q'; configured pairs: [p]");
        assertThatThrownBy(() -> m.recordIncoming("q")).hasMessage("no causal pair named 'q'; configured pairs: [p]");
    }

    @Test
    void shouldRejectBlankNamesAndBadFanOut() {
        assertThatThrownBy(() -> CausalPairMonitor.of(Map.of("p", 0.0), tenSeconds, clock))
                .hasMessageContaining("fanOut of causal pair 'p' must be a finite number > 0");
        assertThatThrownBy(() -> CausalPairMonitor.of(Map.of("p", Double.POSITIVE_INFINITY), tenSeconds, clock))
                .hasMessageContaining("fanOut of causal pair 'p' must be a finite number > 0");
        assertThatThrownBy(() -> CausalPairMonitor.of(Map.of(" ", 1.0), tenSeconds, clock)).hasMessage("causal pair name must not be blank");
    }

    @Test
    void shouldGiveTickSampledRatesAndQueueWhenTicked() {
        CausalPairMonitor m = CausalPairMonitor.of(Map.of("events", 1.0), WindowConfig.of(Duration.ofSeconds(5), 10), clock);
        m.tick(clock.nanoTime());
        record(m, "events", 100, 60);
        clock.advanceMillis(1_000);
        PairSnapshot s = m.tick(clock.nanoTime()).get(0);
        assertThat(s.incomingPerSecond()).isEqualTo(100.0);
        assertThat(s.outgoingPerSecond()).isEqualTo(60.0);
        assertThat(s.queueGrowthPerSecond()).isEqualTo(40.0);
        assertThat(s.estimatedQueueLength()).isEqualTo(40.0);
    }

    @Test
    void shouldFloorTheTickedQueueAtEveryTickWhenMoreWentOutThanCameIn() {
        CausalPairMonitor m = CausalPairMonitor.of(Map.of("p", 1.0), tenSeconds, clock);
        m.tick(clock.nanoTime());
        record(m, "p", 10, 30);
        clock.advanceMillis(1_000);
        m.tick(clock.nanoTime());
        record(m, "p", 20, 10);
        clock.advanceMillis(1_000);
        // step 1: max(0, 0 + 10 - 30) = 0; step 2: max(0, 0 + 20 - 10) = 10
        assertThat(m.tick(clock.nanoTime()).get(0).estimatedQueueLength()).isEqualTo(10.0);
    }

    @Test
    void shouldNotMoveTheTickedFiguresWhenOthersTakeSnapshotsBetweenTicks() {
        CausalPairMonitor m = CausalPairMonitor.of(Map.of("p", 1.0), tenSeconds, clock);
        CausalPairMonitor quiet = CausalPairMonitor.of(Map.of("p", 1.0), tenSeconds, clock);
        m.tick(clock.nanoTime());
        quiet.tick(clock.nanoTime());
        record(m, "p", 0, 5);
        record(quiet, "p", 0, 5);
        m.snapshot("p"); // a gauge read at the low point
        record(m, "p", 5, 0);
        record(quiet, "p", 5, 0);
        clock.advanceMillis(1_000);
        assertThat(m.tick(clock.nanoTime())).isEqualTo(quiet.tick(clock.nanoTime()));
        assertThat(m.snapshot("p").estimatedQueueLength()).isEqualTo(5.0);
    }

    @Test
    void shouldTickPairsInConfigurationOrderWithTheRegisteredGauge() {
        CausalPairMonitor m = CausalPairMonitor.of(bThenA(), tenSeconds, clock);
        m.registerQueueGauge("a", () -> 7);
        m.tick(clock.nanoTime());
        record(m, "a", 1, 0);
        clock.advanceMillis(1_000);
        assertThat(m.tick(clock.nanoTime())).extracting(PairSnapshot::pair, PairSnapshot::estimatedQueueLength,
                PairSnapshot::measuredQueueLength).containsExactly(
                org.assertj.core.groups.Tuple.tuple("b", 0.0, java.util.OptionalLong.empty()),
                org.assertj.core.groups.Tuple.tuple("a", 2.0, java.util.OptionalLong.of(7)));
    }

    /** Pair {@code b} (fan-out 1) configured before pair {@code a} (fan-out 2). */
    private static Map<String, Double> bThenA() {
        Map<String, Double> pairs = new LinkedHashMap<>();
        pairs.put("b", 1.0);
        pairs.put("a", 2.0);
        return pairs;
    }

    private static void record(CausalPairMonitor m, String pair, int in, int out) {
        for (int i = 0; i < in; i++) {
            m.recordIncoming(pair);
        }
        for (int i = 0; i < out; i++) {
            m.recordOutgoing(pair);
        }
    }
}
