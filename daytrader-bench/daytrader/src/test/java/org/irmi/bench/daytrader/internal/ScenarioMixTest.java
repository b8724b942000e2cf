package org.irmi.bench.daytrader.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.irmi.bench.daytrader.internal.ScenarioMix.Action;
import org.junit.jupiter.api.Test;

class ScenarioMixTest {
    @Test
    void shouldGiveEachActionItsWeightOfTheStandardHundredDraws() {
        Map<Action, Integer> counts = new EnumMap<>(Action.class);
        for (int draw = 0; draw < ScenarioMix.STANDARD.total(); draw++) {
            counts.merge(ScenarioMix.STANDARD.pick(draw), 1, Integer::sum);
        }
        assertThat(ScenarioMix.STANDARD.total()).isEqualTo(100);
        assertThat(counts).containsEntry(Action.HOME, 20).containsEntry(Action.QUOTE, 40).containsEntry(Action.LOGOUT, 4)
                .containsEntry(Action.REGISTER, 2).containsEntry(Action.ACCOUNT, 10).containsEntry(Action.PORTFOLIO, 12)
                .containsEntry(Action.BUY, 4).containsEntry(Action.SELL, 4).containsEntry(Action.UPDATE, 4)
                .doesNotContainKey(Action.LOGIN);
    }

    @Test
    void shouldMapTheEdgesOfTheCumulativeWeights() {
        assertThat(ScenarioMix.STANDARD.pick(0)).isEqualTo(Action.HOME);
        assertThat(ScenarioMix.STANDARD.pick(19)).isEqualTo(Action.HOME);
        assertThat(ScenarioMix.STANDARD.pick(20)).isEqualTo(Action.QUOTE);
        assertThat(ScenarioMix.STANDARD.pick(99)).isEqualTo(Action.UPDATE);
    }

    @Test
    void shouldRejectADrawOutsideTheRange() {
        assertThatThrownBy(() -> ScenarioMix.STANDARD.pick(100)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[0, 100)");
    }

    @Test
    void shouldRejectAWrongNumberOfWeights() {
        assertThatThrownBy(() -> new ScenarioMix(List.of(1, 2))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("need 10 weights");
    }
}
