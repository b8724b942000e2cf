package org.irmi.bench.experiments.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The crosstalk warm-up gate: quiet only over a whole window in which no process compiled much. */
class JitQuietTest {

    @Test
    void shouldNotBeQuietBeforeAWholeWindowWasSampled() {
        JitQuiet gate = new JitQuiet(2_000, 100);
        gate.sample(0, 500, 300);
        gate.sample(1_500, 500, 300);

        assertThat(gate.quiet()).isFalse(); // 1.5 s of samples, not 2
        gate.sample(2_000, 500, 300);
        assertThat(gate.quiet()).isTrue();
    }

    @Test
    void shouldStayBusyWhileAnyOneProcessCompilesMoreThanAllowedInTheWindow() {
        JitQuiet gate = new JitQuiet(2_000, 100);
        gate.sample(0, 1_000, 300);
        gate.sample(1_000, 1_030, 340);
        gate.sample(2_000, 1_060, 401); // the client: 101 ms in 2 s

        assertThat(gate.quiet()).isFalse();
        assertThat(gate.largestGrowth()).isEqualTo(101);
        gate.sample(3_000, 1_070, 402); // from t=1000: server 40, client 62
        assertThat(gate.quiet()).isTrue();
        assertThat(gate.largestGrowth()).isEqualTo(62);
    }

    @Test
    void shouldReadTheGrowthFromTheNewestSampleAtLeastAWindowOld() {
        JitQuiet gate = new JitQuiet(2_000, 100);
        gate.sample(0, 0);
        gate.sample(500, 900); // a burst early on
        gate.sample(2_400, 950);

        // t=500 is not yet 2 s old, so the growth is read from t=0, and the burst may lie inside the window
        assertThat(gate.quiet()).isFalse();
        gate.sample(2_600, 960);
        assertThat(gate.quiet()).isTrue(); // from t=500: 60 ms
    }

    @Test
    void shouldCountAProcessThatDoesNotReportAsQuiet() {
        JitQuiet gate = new JitQuiet(1_000, 10);
        gate.sample(0, -1, 5);
        gate.sample(1_000, -1, 9);

        assertThat(gate.quiet()).isTrue();
    }

    @Test
    void shouldRefuseSamplesOfADifferentProcessCount() {
        JitQuiet gate = new JitQuiet(1_000, 10);
        gate.sample(0, 1, 2);

        assertThatThrownBy(() -> gate.sample(10, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
