package org.irmi.adaptation.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AimdLimitTest {
    private static final long TIMEOUT = 100_000_000L;

    @Test
    void shouldAddOnSuccessUnderLoad() {
        AimdLimit a = new AimdLimit(10, 1, 100, 0.9, 2, TIMEOUT);
        assertThat(a.onSample(1_000_000, 10, false)).isEqualTo(12);
    }

    @Test
    void shouldMultiplyDownOnDrop() {
        AimdLimit a = new AimdLimit(10, 1, 100, 0.75, 1, TIMEOUT);
        assertThat(a.onSample(0, 10, true)).isEqualTo(7);
    }

    @Test
    void shouldTreatACallSlowerThanTheTimeoutAsADrop() {
        AimdLimit a = new AimdLimit(10, 1, 100, 0.5, 1, TIMEOUT);
        assertThat(a.onSample(TIMEOUT + 1, 10, false)).isEqualTo(5);
    }

    @Test
    void shouldNotGrowUnderSteadyMildLoad() {
        AimdLimit a = new AimdLimit(10, 1, 100, 0.9, 1, TIMEOUT);
        for (int i = 0; i < 100; i++) {
            a.onSample(1_000_000, 3, false);
        }
        assertThat(a.limit()).isEqualTo(10);
    }

    @Test
    void shouldStayWithinMinAndMax() {
        AimdLimit a = new AimdLimit(2, 2, 3, 0.5, 5, TIMEOUT);
        assertThat(a.onSample(1, 2, false)).isEqualTo(3);
        assertThat(a.onSample(0, 3, true)).isEqualTo(2);
        assertThat(a.onSample(0, 3, true)).isEqualTo(2);
    }
}
