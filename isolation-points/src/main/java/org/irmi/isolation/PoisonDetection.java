package org.irmi.isolation;

/**
 * The poison-message point as its detector drives it: the throughput edges that open and close an
 * episode, and the housekeeping tick. Part of {@link PoisonMessagePoint}.
 *
 * <p>THREAD SAFETY: called on the monitors' (ticker) thread, one call at a time.
 */
public interface PoisonDetection {
    /** A throughput drop with a resource rise started (S1 is taken now). */
    void onRisingEdge(long nowNanos, Evidence evidence);

    /** The server recovered (S2 is taken now and the episode analysed). */
    void onFallingEdge(long nowNanos, Evidence evidence);

    /**
     * Housekeeping at {@code nowNanos}: finishes an episode whose analysis waited for requests of
     * S1 still in flight at the falling edge. Call every 50..500 ms.
     */
    void tick(long nowNanos);
}
