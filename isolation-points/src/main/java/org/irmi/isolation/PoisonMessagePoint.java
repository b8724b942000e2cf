package org.irmi.isolation;

/**
 * The poison-message isolation point: on the server's reader thread, once a request header is
 * parsed and before the request costs a queue slot or a worker, it refuses request types that
 * poison the server.
 *
 * <p>Detection: at a rising edge (throughput drop with a resource rise) it snapshots the
 * signatures in flight (S1), at the falling edge again (S2); suspects are S1 - S2, narrowed over
 * episodes. Per-request CPU and allocation name the offender in the first episode. Filtered
 * signatures go on probation after a cool-down and are re-admitted when healthy.
 *
 * <p>Its roles, each an interface of its own, are what callers take: {@link PoisonAdmission} (the
 * request path), {@link PoisonDetection} (the edges and tick) and {@link PoisonStatus} (operators
 * and dashboards). This type is the whole point, as the runtime builds it.
 *
 * <p>THREAD SAFETY: {@link #onRequestHeader} runs on the selector thread and never blocks; {@link
 * #onDispatchEnd} on dispatch threads; edges and ticks on the monitors' thread. All may run
 * concurrently.
 */
public interface PoisonMessagePoint extends PoisonAdmission, PoisonDetection, PoisonStatus {
}
