package org.irmi.adaptation.internal;

/**
 * A token bucket: {@code ratePerSecond} tokens a second, at most {@code burst} held. Pure: time
 * arrives as data; {@code synchronized} because callers share one bucket across threads and the
 * critical section is a few arithmetic operations.
 *
 * <pre>
 *   tokens(now) = min(burst, tokens(last) + (now - last) * rate / 1e9)
 *   tryAcquire:  tokens &gt;= 1 ? (tokens -= 1, true) : false
 *   reserve:     tokens -= 1 (may go negative); wait = -tokens * 1e9 / rate if tokens &lt; 0
 * </pre>
 * {@link #reserve} hands out future tokens, so paced callers leave in rate order.
 */
public final class TokenBucket {
    private final double ratePerSecond;
    private final double burst;
    private double tokens;
    private long lastNanos;

    public TokenBucket(double ratePerSecond, int burst, long nowNanos) {
        if (!(ratePerSecond > 0)) {
            throw new IllegalArgumentException("rate must be > 0, was " + ratePerSecond);
        }
        if (burst < 1) {
            throw new IllegalArgumentException("burst must be >= 1, was " + burst);
        }
        this.ratePerSecond = ratePerSecond;
        this.burst = burst;
        this.tokens = burst;
        this.lastNanos = nowNanos;
    }

    private void refill(long nowNanos) {
        if (nowNanos > lastNanos) {
            tokens = Math.min(burst, tokens + (nowNanos - lastNanos) * ratePerSecond / 1e9);
            lastNanos = nowNanos;
        }
    }

    /** @return whether a token was taken at {@code nowNanos}. */
    public synchronized boolean tryAcquire(long nowNanos) {
        refill(nowNanos);
        if (tokens >= 1) {
            tokens -= 1;
            return true;
        }
        return false;
    }

    /**
     * Reserves the next token if it comes within {@code maxWaitNanos}.
     *
     * @return the nanoseconds to wait before using it (0: now), or -1 when it would come later
     */
    public synchronized long reserve(long nowNanos, long maxWaitNanos) {
        refill(nowNanos);
        if (tokens >= 1) {
            tokens -= 1;
            return 0;
        }
        long wait = (long) Math.ceil((1 - tokens) * 1e9 / ratePerSecond);
        if (wait > maxWaitNanos) {
            return -1;
        }
        tokens -= 1;
        return wait;
    }

    /** @return tokens available at {@code nowNanos} (negative while reserved ahead). */
    public synchronized double tokens(long nowNanos) {
        refill(nowNanos);
        return tokens;
    }
}
