package org.irmi.adaptation.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GradientLimitTest {
    // initial 20, min 1, max 100, smoothing 0.5, tolerance 1.5, long window 10, queue 4
    private GradientLimit limit() {
        return new GradientLimit(20, 1, 100, 0.5, 1.5, 10, 4);
    }

    @Test
    void shouldGrowByQueueSizeWhenRttIsSteady() {
        GradientLimit g = limit();
        // gradient = min(1, 1.5 * 10ms / 10ms) = 1; new = 20 + 4 = 24; limit = 0.5*20 + 0.5*24 = 22
        assertThat(g.onSample(10_000_000, 20, false)).isEqualTo(22);
    }

    @Test
    void shouldShrinkWhenShortRttRisesAboveTolerance() {
        GradientLimit g = limit();
        g.onSample(10_000_000, 20, false); // long = 10 ms, limit 22
        // long = 10 + (40 - 10) / 10 = 13 ms; gradient = max(0.5, 1.5 * 13 / 40) = 0.5
        // new = 22 * 0.5 + 4 = 15; limit = 0.5 * 22 + 0.5 * 15 = 18.5 -> 18
        assertThat(g.onSample(40_000_000, 22, false)).isEqualTo(18);
        assertThat(g.longRttNanos()).isEqualTo(13_000_000.0);
    }

    @Test
    void shouldHalveTheLimitOnADrop() {
        GradientLimit g = limit();
        // new = 20 * 0.5 = 10; limit = 0.5 * 20 + 0.5 * 10 = 15
        assertThat(g.onSample(0, 20, true)).isEqualTo(15);
    }

    @Test
    void shouldNotGrowWhenApplicationLimited() {
        GradientLimit g = limit();
        assertThat(g.onSample(10_000_000, 9, false)).isEqualTo(20);
    }

    @Test
    void shouldStayWithinMinAndMax() {
        GradientLimit g = new GradientLimit(2, 2, 3, 1.0, 1.5, 10, 4);
        assertThat(g.onSample(10_000_000, 2, false)).isEqualTo(3);
        for (int i = 0; i < 10; i++) {
            g.onSample(0, 3, true);
        }
        assertThat(g.limit()).isEqualTo(2);
    }
}
