package org.irmi.monitors;

import org.irmi.monitors.internal.BucketRingWindow;
import org.irmi.sla.WindowConfig;

/**
 * A time-based sliding window of long samples: counts, sums, min/max, means and per-second rates
 * over the last {@link WindowConfig#length()}.
 *
 * <p>It is a ring of pre-aggregated time buckets. Totals are kept with "subtract on evict", so
 * {@link #snapshot()} costs O(1) for count, sum and rate (O(buckets) for min/max). After an idle gap
 * longer than the window it resets instead of stepping through the buckets. Time comes only from the
 * injected {@link Clock}.
 *
 * <p>THREAD-SAFE. {@link #record(long)} and {@link #add(long, long)} are LOCK-FREE except once per
 * bucket period, when the first recorder of a new bucket rotates the ring under a short lock that
 * does O(buckets) work at most. {@link #snapshot()} may be called from any thread.
 */
public interface SlidingWindow {

    /**
     * Records one sample.
     *
     * @param value the sample (in the unit the owner chose: nanos, bytes, 1 for an event, ...)
     */
    void record(long value);

    /**
     * Records one sample at a time the caller already read from the same clock; lets a hot path
     * that feeds several windows read the clock once.
     *
     * @param nowNanos the window clock's current {@link Clock#nanoTime()}
     * @param value    the sample
     */
    void recordAt(long nowNanos, long value);

    /**
     * Records {@code count} samples whose values add up to {@code sum}. Min/max are not updated
     * (the individual values are unknown). Use for batches, e.g. events counted elsewhere.
     *
     * @param count number of samples, not negative
     * @param sum   sum of their values
     */
    void add(long count, long sum);

    /** @return the window's content now; never null */
    WindowSnapshot snapshot();

    /** @return this window's shape */
    WindowConfig config();

    /**
     * A new window.
     *
     * @param config its length and buckets
     * @param clock  its time source
     * @return a new, empty window
     */
    static SlidingWindow of(WindowConfig config, Clock clock) {
        return new BucketRingWindow(config, clock);
    }
}
