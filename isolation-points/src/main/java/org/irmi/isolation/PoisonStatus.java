package org.irmi.isolation;

import java.util.Set;

/**
 * The poison-message point as operators and dashboards see it: its episodes, its filters and
 * their healing, whether this node advertises overload, and the operator's own filter. Part of
 * {@link PoisonMessagePoint}.
 *
 * <p>THREAD SAFETY: any thread.
 */
public interface PoisonStatus {
    /** @return the reports of the last episodes (at most 100), oldest first. */
    java.util.List<EpisodeReport> episodeReports();

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

    /**
     * Whether the point is watching an episode that has named no suspect yet: from its rising edge
     * until its analysis (including a short episode waiting for a new rise, and an ended one waiting
     * for its requests to finish). Watching is not an alarm: an episode names its suspect, if any,
     * when it is analysed, and CPU taken by other processes opens none at all. Any thread.
     *
     * @return true while an episode is watched
     */
    default boolean watching() {
        return openEpisode().isPresent();
    }

    /**
     * @return suspects named so far: analyses that filtered a signature or named one by cost (an
     *         episode whose poison call outlived its analysis counts when the call ends and is named).
     *         Episodes that named nothing are not counted here. Any thread.
     */
    default long suspectsNamed() {
        return 0;
    }

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
