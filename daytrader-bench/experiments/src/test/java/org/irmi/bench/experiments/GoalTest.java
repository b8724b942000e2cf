package org.irmi.bench.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class GoalTest {

    private static Goal goal(Spread plainHarm, Spread irmi) {
        return new Goal("slow-client", "stressed-rtt", "stressed RTT / unloaded on I-RMI", "%.2fx", plainHarm, irmi,
                Bound.atMost(1.1), new Harm("stressed RTT / unloaded on plain", plainHarm, Bound.atLeast(2)));
    }

    @Test
    void shouldTakeTheMedianOfFiniteTrialsWhenSomeMeasuredNothing() {
        Spread spread = Spread.of(List.of(3.0, Double.NaN, 1.0, 2.0));

        assertThat(spread.median()).isEqualTo(2.0);
        assertThat(spread.min()).isEqualTo(1.0);
        assertThat(spread.max()).isEqualTo(3.0);
        assertThat(spread.n()).isEqualTo(3);
        assertThat(spread.trials()).isEqualTo(4);
    }

    @Test
    void shouldAverageTheMiddleTwoWhenTheCountIsEven() {
        assertThat(Spread.of(1.0, 4.0, 2.0, 10.0).median()).isEqualTo(3.0);
    }

    @Test
    void shouldNotBeReachedWhenIrmiMeetsTheBoundButPlainShowedNoHarm() {
        Goal goal = goal(Spread.of(1.3, 1.4, 1.2), Spread.of(1.0, 1.05, 0.9));

        assertThat(goal.irmiMet()).isTrue();
        assertThat(goal.harmShown()).isFalse();
        assertThat(goal.reached()).isFalse();
        assertThat(goal.verdict()).contains("harm not shown");
    }

    @Test
    void shouldBeReachedOnlyWhenBothMediansMeetTheirBounds() {
        assertThat(goal(Spread.of(2.5, 1.9, 3.0), Spread.of(1.0, 1.2, 1.05)).reached()).isTrue();
        assertThat(goal(Spread.of(2.5, 1.9, 3.0), Spread.of(1.0, 1.2, 1.15)).reached()).isFalse();
    }

    @Test
    void shouldNotBeReachedWhenIrmiDidNotRunOrMeasuredNothing() {
        assertThat(goal(Spread.of(3.0), null).reached()).isFalse();
        assertThat(goal(Spread.of(3.0), Spread.of(Double.NaN)).reached()).isFalse();
        assertThat(goal(Spread.of(3.0), Spread.of(Double.NaN)).irmiText()).isEqualTo("not measured");
    }

    @Test
    void shouldFormatMedianWithItsRangeWhenSeveralTrialsMeasured() {
        assertThat(Spread.of(1.0, 2.0, 3.0).format("%.1fx")).isEqualTo("2.0x (1.0x to 3.0x)");
        assertThat(Spread.of(2.0).format("%.1fx")).isEqualTo("2.0x");
    }
}
