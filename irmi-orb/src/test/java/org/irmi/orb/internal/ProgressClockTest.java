package org.irmi.orb.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProgressClockTest {

    @Test
    void shouldNotMoveWhenOneByteArrivesNowAndThen() {
        ProgressClock c = new ProgressClock(0);
        for (int i = 1; i <= 100; i++) {
            c.onBytes(1, i * 20_000_000_000L);
        }
        assertThat(c.sinceNanos()).isZero();
    }

    @Test
    void shouldNotMoveWhenNothingArrives() {
        ProgressClock c = new ProgressClock(5);
        c.onBytes(0, 100);
        assertThat(c.sinceNanos()).isEqualTo(5);
    }

    @Test
    void shouldMoveWhenAKilobyteArrived() {
        ProgressClock c = new ProgressClock(0);
        c.onBytes(ProgressClock.PROGRESS_BYTES - 1, 10);
        assertThat(c.sinceNanos()).isZero();
        c.onBytes(1, 20);
        assertThat(c.sinceNanos()).isEqualTo(20);
        c.onBytes(ProgressClock.PROGRESS_BYTES - 1, 30);
        assertThat(c.sinceNanos()).isEqualTo(20);
        c.restart(40);
        c.onBytes(1, 50);
        assertThat(c.sinceNanos()).isEqualTo(40);
    }
}
