package org.irmi.isolation;

import java.util.function.LongSupplier;

/**
 * The slow-client isolation point: on the client side, before a call's arguments are marshalled,
 * it refuses to let a slow downstream node build queues and memory pressure on this node.
 *
 * <p>It watches, per causal pair, the rates of incoming calls and outgoing calls (and so the queue
 * between them), this node's CPU, heap and GC, and the load reports the target host attached to
 * its replies. When a pair is held up it asks its adaptation module what to do with each call.
 *
 * <p>THREAD SAFETY: every method may be called from any thread; {@link #beforeMarshalling} is the
 * hot path and reads only volatile state unless its pair is triggered. {@link #tick} must be
 * called by one thread at a time (the runtime's ticker).
 */
public interface SlowClientPoint {
    /**
     * The client hook: decides one outgoing call before its arguments are marshalled.
     *
     * @return {@link Decision#PROCEED} unless the call's pair or host is triggered
     */
    Decision beforeMarshalling(OutgoingCall call);

    /**
     * Reports how a call ended and the load report its reply carried.
     *
     * @param call      the call, as passed to {@link #beforeMarshalling}
     * @param rttNanos  its round trip
     * @param report    the target's load report, or null when the reply carried none
     */
    void onReply(OutgoingCall call, long rttNanos, RemoteLoad report);

    /** Counts one incoming call of {@code operation} (the "in" side of causal pairs). */
    void onIncoming(String operation);

    /**
     * Registers the application's own queue length (optional). A gauge named like the SLA's
     * {@code queueGauge} replaces the estimate for every pair; otherwise a gauge named like a pair
     * replaces that pair's estimate.
     */
    void registerQueueGauge(String gaugeName, LongSupplier queueLength);

    /** Re-evaluates every pair and host at {@code nowNanos}; cheap, call every 50..500 ms. */
    void tick(long nowNanos);

    /** @return whether the pair is triggered now. */
    boolean isTriggered(String pairName);

    /** @return whether calls to {@code host} are triggered now (pair or advertised overload). */
    boolean isHostTriggered(String host);

    /** @return every causal pair as of the last tick, in SLA order (for dashboards; any thread). */
    default java.util.List<CausalPairStatus> pairStatuses() {
        return java.util.List.of();
    }

    /** @return every remote host heard from, sorted by host (for dashboards; any thread). */
    default java.util.List<RemoteHostStatus> hostStatuses() {
        return java.util.List.of();
    }
}
