package org.irmi.isolation;

/**
 * The poison-message point as the request path uses it: the reader thread asks it about each
 * request header (and how much of the body it wants to see), the dispatch threads report each
 * admitted request's start and cost. Part of {@link PoisonMessagePoint}.
 *
 * <p>THREAD SAFETY: {@link #onRequestHeader} and {@link #argumentBytesWanted} run on the selector
 * thread and never block; {@link #onDispatchStart} and {@link #onDispatchEnd} on dispatch threads.
 */
public interface PoisonAdmission {
    /**
     * The reader hook. Computes the request's signature, refuses it when filtered (through the
     * adaptation module), otherwise records it in flight.
     *
     * @return only {@link Decision.Proceed}, {@link Decision.Reject} or {@link Decision.Forward}
     */
    Decision onRequestHeader(IncomingRequest request);

    /** @return how many bytes of the body the reader should put in {@link IncomingRequest#argumentBytes()}. */
    int argumentBytesWanted(String operation);

    /** Optional: the request left the hand-off queue and started executing on a worker. */
    void onDispatchStart(long requestKey);

    /**
     * The request finished (reply sent, exception, or dropped) with the cost measured on its
     * dispatch thread; CPU and allocation are -1 when unknown. Forgets the request.
     */
    void onDispatchEnd(long requestKey, long cpuNanos, long allocatedBytes);
}
