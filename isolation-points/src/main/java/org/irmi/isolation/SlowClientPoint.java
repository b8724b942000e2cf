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
 * <p>Its roles, each an interface of its own, are what callers take: {@link SlowClientGate} (the
 * calls) and {@link SlowClientStatus} (operators and dashboards); the application's queue gauges and
 * the tick are the point's own.
 *
 * <p>THREAD SAFETY: every method may be called from any thread; {@link #beforeMarshalling} is the
 * hot path and reads only volatile state unless its pair is triggered. {@link #tick} must be
 * called by one thread at a time (the runtime's ticker).
 */
public interface SlowClientPoint extends SlowClientGate, SlowClientStatus {
    /**
     * Registers the application's own queue length (optional). A gauge named like the SLA's
     * {@code queueGauge} replaces the estimate for every pair; otherwise a gauge named like a pair
     * replaces that pair's estimate.
     */
    void registerQueueGauge(String gaugeName, LongSupplier queueLength);

    /** Re-evaluates every pair and host at {@code nowNanos}; cheap, call every 50..500 ms. */
    void tick(long nowNanos);
}
