package org.irmi.monitors;

import java.util.List;
import java.util.function.LongSupplier;

import io.micrometer.core.instrument.binder.MeterBinder;
import org.irmi.monitors.internal.WindowedCausalPairMonitor;

/**
 * Request rates per causal pair (the slow-client isolation point's first window): one incoming and
 * one outgoing rate window per pair. Their difference estimates queue growth; the running difference
 * of the totals estimates the queue length; an application may also register the real queue's length.
 *
 * <p>THREAD-SAFE. {@link #recordIncoming(String)} and {@link #recordOutgoing(String)} are LOCK-FREE
 * (one map lookup, then {@link SlidingWindow#record(long)}); unknown operations cost one lookup and
 * are ignored.
 */
public interface CausalPairMonitor {

    /**
     * Counts one incoming call into every pair whose incoming operation it is.
     *
     * @param operation the operation received
     */
    void recordIncoming(String operation);

    /**
     * Counts one outgoing call into every pair whose outgoing operation it is.
     *
     * @param operation the operation called
     */
    void recordOutgoing(String operation);

    /**
     * Registers the real length of the pair's queue (e.g. {@code queue::size}); replaces an earlier one.
     * The supplier is called only when a snapshot is taken; it must be THREAD-SAFE and fast.
     *
     * @param pairName a configured pair
     * @param length   supplier of the current length
     * @throws IllegalArgumentException if no pair has that name
     */
    void registerQueueGauge(String pairName, LongSupplier length);

    /**
     * @param pairName a configured pair
     * @return its rates now
     * @throws IllegalArgumentException if no pair has that name
     */
    PairSnapshot snapshot(String pairName);

    /** @return every pair's rates now, in configuration order */
    List<PairSnapshot> snapshots();

    /** @return the configured pairs, in order */
    List<CausalPair> pairs();

    /**
     * Gauges {@code irmi.pairs.*} tagged {@code pair}. Bind once.
     *
     * @return the binder
     */
    MeterBinder metrics();

    /**
     * @param pairs  the pairs, usually from the SLA; names must be unique
     * @param config window of every rate
     * @param clock  time source
     * @return a new monitor
     */
    static CausalPairMonitor of(List<CausalPair> pairs, WindowConfig config, Clock clock) {
        return new WindowedCausalPairMonitor(pairs, config, clock);
    }
}
