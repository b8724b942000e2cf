package org.irmi.monitors.internal;

import java.util.ArrayDeque;

/**
 * The in/out rates of one causal pair over a sliding window, and the estimate of the queue between
 * them, computed from cumulative counts sampled at each tick. Pure: time arrives as data.
 *
 * <p>Formulas, with cumulative counts I(t) (incoming) and O(t) (outgoing), fan-out f, and the
 * oldest sample t0 still inside the window [now - window, now]:
 * <pre>
 *   inRate  = (I(now) - I(t0)) / (now - t0)            [calls/s]
 *   outRate = (O(now) - O(t0)) / (now - t0)
 *   growth  = f * inRate - outRate                     [calls/s the queue grows by]
 *   Q(now)  = max(0, Q(prev) + f * (I(now) - I(prev)) - (O(now) - O(prev)))
 * </pre>
 * Q is the paper's estimate of a queue we cannot see: what came in and has not gone out, floored
 * at zero at every step so that calls that never cause an outgoing call do not let it drift below.
 *
 * <p>{@link WindowedCausalPairMonitor#tick} keeps one per causal pair and feeds it the pair's running
 * totals; this is the view the slow-client isolation point decides on.
 *
 * <p>THREAD SAFETY: not thread-safe; ONE TICKING THREAD ONLY.
 */
public final class PairWindow {
    private final long windowNanos;
    private final double fanOut;
    private final ArrayDeque<long[]> samples = new ArrayDeque<>();
    private double queueEstimate;
    private long lastIn;
    private long lastOut;
    private boolean started;

    /** The state after one tick. */
    public record Sample(double inRate, double outRate, double growthPerSecond,
                         double queueEstimate) {
    }

    /**
     * @param windowNanos length of the window, nanoseconds (&gt; 0)
     * @param fanOut      outgoing calls per incoming call
     */
    public PairWindow(long windowNanos, double fanOut) {
        if (windowNanos <= 0) {
            throw new IllegalArgumentException("windowNanos must be > 0, was " + windowNanos);
        }
        this.windowNanos = windowNanos;
        this.fanOut = fanOut;
    }

    /**
     * Adds the cumulative counts seen at {@code nowNanos} and returns the window's state.
     *
     * @param nowNanos       monotonic time, not before the previous tick
     * @param cumulativeIn   incoming calls counted since start
     * @param cumulativeOut  outgoing calls counted since start
     */
    public Sample onTick(long nowNanos, long cumulativeIn, long cumulativeOut) {
        if (started) {
            queueEstimate = Math.max(0.0, queueEstimate + fanOut * (cumulativeIn - lastIn)
                    - (cumulativeOut - lastOut));
        }
        started = true;
        lastIn = cumulativeIn;
        lastOut = cumulativeOut;
        samples.addLast(new long[]{nowNanos, cumulativeIn, cumulativeOut});
        // keep exactly one sample at or before the window's start as the base
        while (samples.size() > 1) {
            long[] second = secondOldest();
            if (second[0] <= nowNanos - windowNanos) {
                samples.removeFirst();
            } else {
                break;
            }
        }
        long[] base = samples.peekFirst();
        long dt = nowNanos - base[0];
        if (dt <= 0) {
            return new Sample(0, 0, 0, queueEstimate);
        }
        double seconds = dt / 1e9;
        double inRate = (cumulativeIn - base[1]) / seconds;
        double outRate = (cumulativeOut - base[2]) / seconds;
        return new Sample(inRate, outRate, fanOut * inRate - outRate, queueEstimate);
    }

    private long[] secondOldest() {
        var it = samples.iterator();
        it.next();
        return it.next();
    }

    /** @return the current queue estimate. */
    public double queueEstimate() {
        return queueEstimate;
    }
}
