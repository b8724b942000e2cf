package org.irmi.monitors;

import org.irmi.monitors.internal.RecorderLatencyWindow;
import org.irmi.sla.WindowConfig;

/**
 * A sliding window of latencies (or any non-negative long, e.g. bytes) with percentiles, built on
 * HdrHistogram's {@code Recorder}: writers record without waiting; the reader moves interval
 * histograms into a ring of per-bucket histograms and keeps their sum by "add on close, subtract on
 * evict".
 *
 * <p>THREAD-SAFE. {@link #recordNanos(long)} is WAIT-FREE for the histogram (the Recorder) and at most
 * once per bucket period tries (never waits) to rotate the ring. {@link #snapshot()} may be called
 * from any thread; snapshots serialise on one lock.
 */
public interface LatencyWindow {

    /** Largest value tracked: one hour in nanoseconds; larger values are clamped to it. */
    long HIGHEST_TRACKABLE_NANOS = 3_600_000_000_000L;

    /**
     * Records one latency.
     *
     * @param nanos the latency, nanoseconds; negative values are recorded as 0, values above
     *              {@link #HIGHEST_TRACKABLE_NANOS} as that bound
     */
    void recordNanos(long nanos);

    /** @return the distribution over the window now; never null */
    LatencySnapshot snapshot();

    /** @return this window's shape */
    WindowConfig config();

    /**
     * A new latency window.
     *
     * @param config window length and buckets
     * @param clock  time source
     * @return the window
     */
    static LatencyWindow of(WindowConfig config, Clock clock) {
        return new RecorderLatencyWindow(config, clock);
    }
}
