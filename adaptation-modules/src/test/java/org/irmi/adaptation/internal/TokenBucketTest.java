package org.irmi.adaptation.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class TokenBucketTest {
    private static final long MS = 1_000_000L;

    @Test
    void shouldLetABurstThroughThenRefuse() {
        TokenBucket b = new TokenBucket(10, 3, 0);
        assertThat(b.tryAcquire(0)).isTrue();
        assertThat(b.tryAcquire(0)).isTrue();
        assertThat(b.tryAcquire(0)).isTrue();
        assertThat(b.tryAcquire(0)).isFalse();
    }

    @Test
    void shouldRefillAtTheRate() {
        TokenBucket b = new TokenBucket(10, 1, 0);
        assertThat(b.tryAcquire(0)).isTrue();
        assertThat(b.tryAcquire(99 * MS)).isFalse();
        assertThat(b.tryAcquire(100 * MS)).isTrue();
    }

    @Test
    void shouldNeverHoldMoreThanTheBurst() {
        TokenBucket b = new TokenBucket(10, 2, 0);
        assertThat(b.tokens(10_000 * MS)).isEqualTo(2.0);
    }

    @Test
    void shouldHandOutFutureTokensInRateOrderWhenReserving() {
        TokenBucket b = new TokenBucket(10, 1, 0);
        assertThat(b.reserve(0, 1_000 * MS)).isZero();
        assertThat(b.reserve(0, 1_000 * MS)).isEqualTo(100 * MS);
        assertThat(b.reserve(0, 1_000 * MS)).isEqualTo(200 * MS);
        assertThat(b.tokens(0)).isCloseTo(-2.0, within(1e-9));
    }

    @Test
    void shouldRefuseAReservationBeyondTheMaximumWait() {
        TokenBucket b = new TokenBucket(10, 1, 0);
        b.reserve(0, 0);
        assertThat(b.reserve(0, 50 * MS)).isEqualTo(-1);
        assertThat(b.tokens(0)).isCloseTo(0.0, within(1e-9));
    }
}
