package org.irmi.isolation;

import java.util.Set;

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
 * <p>THREAD SAFETY: {@link #onRequestHeader} runs on the selector thread and never blocks; {@link
 * #onDispatchEnd} on dispatch threads; edges and ticks on the monitors' thread. All may run
 * concurrently.
 */
public interface PoisonMessagePoint {
    /**
     * The reader hook. Computes the request's signature, refuses it when filtered (through the
     * adaptation module), otherwise records it in flight.
     *
     * @return only {@link Decision.Proceed}, {@link Decision.Reject} or {@link Decision.Forward}
     */
    Decision onRequestHeader(IncomingRequest request);

    /** Optional: the request left the hand-off queue and started executing on a worker. */
    void onDispatchStart(long requestKey);

    /**
     * The request finished (reply sent, exception, or dropped) with the cost measured on its
     * dispatch thread; CPU and allocation are -1 when unknown. Forgets the request.
     */
    void onDispatchEnd(long requestKey, long cpuNanos, long allocatedBytes);

    /** A throughput drop with a resource rise started (S1 is taken now). */
    void onRisingEdge(long nowNanos, Evidence evidence);

    /** The server recovered (S2 is taken now and the episode analysed). */
    void onFallingEdge(long nowNanos, Evidence evidence);

    /**
     * Housekeeping at {@code nowNanos}: finishes an episode whose analysis waited for requests of
     * S1 still in flight at the falling edge. Call every 50..500 ms.
     */
    void tick(long nowNanos);

    /** @return the reports of the last episodes (at most 100), oldest first. */
    java.util.List<EpisodeReport> episodeReports();

    /** @return how many bytes of the body the reader should put in {@link IncomingRequest#argumentBytes()}. */
    int argumentBytesWanted(String operation);

    /**
     * @return whether this node should advertise overload in its load reports now: inside an
     *         episode that has lasted {@code minEpisode}, and for {@code advertiseOverload} after
     *         such an episode or a new filter
     */
    boolean advertisesOverload(long nowNanos);

    /** @return the signatures filtered now (including those on probation). */
    Set<String> filtered();

    /** @return episodes seen so far. */
    int episodes();

    /** Filters a signature by hand (operator action); it heals like any other. */
    void filter(String signature, long nowNanos);

    /**
     * The filters and their healing state at {@code nowNanos} (for dashboards; any thread).
     *
     * @return one entry per filtered signature, sorted by signature
     */
    default java.util.List<FilterStatus> filterStatuses(long nowNanos) {
        return java.util.List.of();
    }

    /**
     * The episode open now, if any (for dashboards; any thread). Its {@code fallingNanos} is -1;
     * {@code inFlightAtRise} is S1; {@code suspects} are the signatures of S1 not in flight now
     * (where the analysis would start if the episode ended now); {@code evidence} holds the
     * episode's cost per signature so far ({@code <signature>.cpuNanosPerRequest},
     * {@code <signature>.allocatedBytesPerRequest}, {@code <signature>.requests}).
     */
    default java.util.Optional<EpisodeReport> openEpisode() {
        return java.util.Optional.empty();
    }
}
