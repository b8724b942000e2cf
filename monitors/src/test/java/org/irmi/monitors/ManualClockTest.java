package org.irmi.monitors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class ManualClockTest {

    @Test
    void shouldMoveMonotonicAndWallTimeTogetherWhenAdvanced() {
        ManualClock clock = new ManualClock(100, 5_000);
        clock.advance(Duration.ofMillis(250));
        assertThat(clock.nanoTime()).isEqualTo(100 + 250_000_000L);
        assertThat(clock.wallMillis()).isEqualTo(5_250);
    }

    @Test
    void shouldRefuseToGoBackWhenStepIsNegative() {
        ManualClock clock = new ManualClock();
        assertThatThrownBy(() -> clock.advanceNanos(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stepNanos must be >= 0");
        clock.setNanos(10);
        assertThatThrownBy(() -> clock.setNanos(9)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("earlier than the current time 10");
    }

    @Test
    void shouldReadTheJvmClockWhenSystem() {
        long before = System.nanoTime();
        long read = Clock.system().nanoTime();
        assertThat(read).isGreaterThanOrEqualTo(before);
        assertThat(Clock.system().wallMillis()).isCloseTo(System.currentTimeMillis(), org.assertj.core.data.Offset.offset(10_000L));
    }
}
