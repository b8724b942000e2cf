package org.irmi.adaptation.internal;

/**
 * The gradient limit (after Netflix concurrency-limits' Gradient2), as the SLA documents it:
 * <pre>
 *   longRtt  = first sample, then longRtt + (rtt - longRtt) / longWindow      (an EMA)
 *   gradient = max(0.5, min(1, rttTolerance * longRtt / rtt))
 *   newLimit = limit * gradient + queueSize          (on a drop: limit * 0.5, without queueSize,
 *                                                     so that drops can push the limit below queueSize)
 *   limit    = clamp((1 - smoothing) * limit + smoothing * newLimit, minLimit, maxLimit)
 * </pre>
 * Application-limited samples ({@code inFlight * 2 < limit} and no drop) leave the limit
 * unchanged, so that a limit never grows under load that does not use it.
 */
public final class GradientLimit implements LimitAlgorithm {
    private final double smoothing;
    private final double rttTolerance;
    private final int longWindow;
    private final int queueSize;
    private final int minLimit;
    private final int maxLimit;
    private double limit;
    private double longRtt = Double.NaN;

    public GradientLimit(int initialLimit, int minLimit, int maxLimit, double smoothing,
                         double rttTolerance, int longWindow, int queueSize) {
        if (minLimit < 1 || minLimit > initialLimit || initialLimit > maxLimit) {
            throw new IllegalArgumentException("need 1 <= minLimit <= initialLimit <= maxLimit, was "
                    + minLimit + ", " + initialLimit + ", " + maxLimit);
        }
        this.smoothing = smoothing;
        this.rttTolerance = rttTolerance;
        this.longWindow = longWindow;
        this.queueSize = queueSize;
        this.minLimit = minLimit;
        this.maxLimit = maxLimit;
        this.limit = initialLimit;
    }

    @Override
    public int limit() {
        return (int) limit;
    }

    /** @return the long-term RTT average in nanoseconds (NaN before the first sample). */
    public double longRttNanos() {
        return longRtt;
    }

    @Override
    public int onSample(long rttNanos, int inFlight, boolean didDrop) {
        double newLimit;
        if (didDrop) {
            newLimit = limit * 0.5;
        } else {
            if (rttNanos <= 0) {
                return limit();
            }
            longRtt = Double.isNaN(longRtt) ? rttNanos : longRtt + (rttNanos - longRtt) / longWindow;
            if (inFlight * 2 < limit) {
                return limit();
            }
            double gradient = Math.max(0.5, Math.min(1.0, rttTolerance * longRtt / rttNanos));
            newLimit = limit * gradient + queueSize;
        }
        limit = Math.max(minLimit, Math.min(maxLimit,
                (1 - smoothing) * limit + smoothing * newLimit));
        return limit();
    }
}
