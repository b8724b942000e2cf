package org.irmi.bench.experiments.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

class SamplesTest {

    private final Samples samples = Samples.parse(List.of(
            "1000 0 0", "2000 10 5", "3000 30 5", "4000 60 20"));

    @Test
    void shouldTakeTheLastSampleAtOrBeforeWhenCuttingAPhase() {
        assertThat(samples.at(2500)[0]).isEqualTo(2000);
    }

    @Test
    void shouldTakeTheFirstSampleWhenTimeIsBeforeAllSamples() {
        assertThat(samples.at(10)[0]).isEqualTo(1000);
    }

    @Test
    void shouldSubtractCumulativeCountersWhenComputingDelta() {
        assertThat(samples.delta(1, 2000, 4000)).isEqualTo(50);
    }

    @Test
    void shouldDivideByWindowWhenComputingWindowedRate() {
        double[][] rate = samples.windowedRate(1, 1000, 2000);

        // points at t=3 s (30-0)/2 s and t=4 s (60-10)/2 s
        assertThat(rate[0]).containsExactly(2.0, 3.0);
        assertThat(rate[1]).containsExactly(15.0, 25.0);
    }

    @Test
    void shouldSkipWindowsWithoutCallsWhenComputingRatio() {
        double[][] ratio = samples.windowedRatio(1, 2, 1000, 1000, 1.0);

        // t=3 s: calls did not move (5 -> 5), so no point; t=2 s: 10/5; t=4 s: 30/15
        assertThat(ratio[0]).containsExactly(1.0, 3.0);
        assertThat(ratio[1][1]).isCloseTo(2.0, within(1e-9));
    }

    @Test
    void shouldIgnoreLinesCutShortWhenParsing() {
        Samples parsed = Samples.parse(List.of("1000 1", "20x0 2"));

        assertThat(parsed.rows()).hasSize(1);
    }
}
