package org.irmi.isolation;

/**
 * The QoS-crosstalk isolation point: it turns SLA weights into each connection's read budget per
 * selector turn and its {@code SO_RCVBUF}, following the number of active streams, and applies
 * them through the ORB's {@link ConnectionTuner}.
 *
 * <p>Its roles, each an interface of its own, are what callers take: {@link CrosstalkTraffic} (the
 * reader's events) and {@link CrosstalkShares} (the view of each connection); the tick is the
 * point's own.
 *
 * <p>SELECTOR THREAD ONLY: every method is called by the one selector thread that owns the
 * connections, so the point keeps its state without locks.
 */
public interface QosCrosstalkPoint extends CrosstalkTraffic, CrosstalkShares {
    /** Recomputes the active streams and their budgets; call once per turn or every few ms. */
    void tick(long nowNanos);
}
