package org.irmi.monitors;

import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

import io.micrometer.core.instrument.binder.MeterBinder;
import org.irmi.monitors.internal.WindowedCausalPairMonitor;
import org.irmi.sla.WindowConfig;

/**
 * Request rates per causal pair (the slow-client isolation point's first window): one incoming and
 * one outgoing rate window per pair. Their difference estimates queue growth; the running difference
 * of the totals estimates the queue length; an application may also register the real queue's length.
 *
 * <p>The pairs themselves (which calls belong to which pair) are the SLA's {@code CausalPair}s; the
 * caller matches a call against them and records it under each matching pair's name. The monitor
 * only knows names and fan-outs.
 *
 * <p>THREAD-SAFE. {@link #recordIncoming(String)} and {@link #recordOutgoing(String)} are LOCK-FREE
 * (one map lookup, then {@link SlidingWindow#record(long)}).
 */
public interface CausalPairMonitor {

    /**
     * Counts one incoming call of the pair.
     *
     * @param pairName a configured pair
     * @throws IllegalArgumentException if no pair has that name
     */
    void recordIncoming(String pairName);

    /**
     * Counts one outgoing call of the pair.
     *
     * @param pairName a configured pair
     * @throws IllegalArgumentException if no pair has that name
     */
    void recordOutgoing(String pairName);

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

    /**
     * Samples every pair's running totals at {@code nowNanos} and returns the pairs' state over the
     * samples of the window, in configuration order: the view the slow-client isolation point decides
     * on. With cumulative counts I(t), O(t), fan-out f and t0 the oldest tick still inside
     * {@code [now - window, now]}:
     * <pre>
     *   inRate  = (I(now) - I(t0)) / (now - t0)          outRate likewise
     *   growth  = f * inRate - outRate
     *   Q(now)  = max(0, Q(prev) + f * (I(now) - I(prev)) - (O(now) - O(prev)))
     * </pre>
     * Q starts at 0 at the first tick. Rates are 0 until a second tick. Unlike {@link #snapshot},
     * only ticks move these figures, so their values depend on the tick times alone, not on who else
     * reads the monitor.
     *
     * <p>ONE TICKING THREAD ONLY (the figures are that thread's state); recording stays lock-free
     * meanwhile.
     *
     * @param nowNanos monotonic time of the tick, from the monitor's clock, not before the previous tick
     * @return each pair's tick-sampled rates and queue estimate; {@code measuredQueueLength} is read
     *         from the registered gauge, if any
     */
    List<PairSnapshot> tick(long nowNanos);

    /** @return the configured pairs' names, in order */
    List<String> pairNames();

    /**
     * Gauges {@code irmi.pairs.*} tagged {@code pair}. Bind once.
     *
     * @return the binder
     */
    MeterBinder metrics();

    /**
     * @param fanOutByPair each pair's fan-out (outgoing calls per incoming call, finite and &gt; 0) by
     *                     its name, usually from the SLA's causal pairs; iteration order is the
     *                     configuration order
     * @param config       window of every rate
     * @param clock        time source
     * @return a new monitor
     */
    static CausalPairMonitor of(Map<String, Double> fanOutByPair, WindowConfig config, Clock clock) {
        return new WindowedCausalPairMonitor(fanOutByPair, config, clock);
    }
}
