package org.irmi.adaptation.internal;

/**
 * Additive increase, multiplicative decrease:
 * <pre>
 *   drop or rtt &gt; timeout  : limit = max(minLimit, floor(limit * backoffRatio))
 *   success, inFlight * 2 &gt;= limit : limit = min(maxLimit, limit + increase)
 *   success, application-limited    : unchanged
 * </pre>
 */
public final class AimdLimit implements LimitAlgorithm {
    private final int minLimit;
    private final int maxLimit;
    private final double backoffRatio;
    private final int increase;
    private final long timeoutNanos;
    private int limit;

    public AimdLimit(int initialLimit, int minLimit, int maxLimit, double backoffRatio, int increase,
                     long timeoutNanos) {
        if (minLimit < 1 || minLimit > initialLimit || initialLimit > maxLimit) {
            throw new IllegalArgumentException("need 1 <= minLimit <= initialLimit <= maxLimit, was "
                    + minLimit + ", " + initialLimit + ", " + maxLimit);
        }
        this.minLimit = minLimit;
        this.maxLimit = maxLimit;
        this.backoffRatio = backoffRatio;
        this.increase = increase;
        this.timeoutNanos = timeoutNanos;
        this.limit = initialLimit;
    }

    @Override
    public int limit() {
        return limit;
    }

    @Override
    public int onSample(long rttNanos, int inFlight, boolean didDrop) {
        if (didDrop || rttNanos > timeoutNanos) {
            limit = Math.max(minLimit, (int) Math.floor(limit * backoffRatio));
        } else if (inFlight * 2 >= limit) {
            limit = Math.min(maxLimit, limit + increase);
        }
        return limit;
    }
}
