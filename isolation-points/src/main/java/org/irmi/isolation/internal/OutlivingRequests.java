package org.irmi.isolation.internal;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The requests that were in flight at an episode's falling edge and had not ended when the episode
 * was analysed, with what the analysis saw: when one of them ends, its cost is judged as if it had
 * ended within the episode ({@link SuspectAnalyzer#nameOutliving}).
 *
 * <p>Why: a request's cost is known only when it ends. The analysis waits for the requests of S1
 * still running at the falling edge, but only until a deadline that grows with the episode's length
 * ({@code DefaultPoisonMessagePoint}), and not at all for requests admitted during the episode. A
 * poison call of 4 s in an episode that ended after 1 s (throughput came back between two
 * collections) was analysed without its cost, its cost then went to the baseline, and nothing named
 * it: the tiny CI run of the poison experiment named it one episode late.
 *
 * <p>THREADING: {@link #endedHere} from dispatch threads (a concurrent set); {@link #settle} and the
 * getters under the poison point's episode lock, which also orders {@link #settle} before any read.
 */
final class OutlivingRequests {

    private final Set<Long> keys;
    // set once under the episode lock, read under it
    private int episode;
    private long risingNanos;
    private long fallingNanos;
    private Set<String> inFlightAtRise = Set.of();
    private Map<String, CostTotals> episodeCosts = Map.of();
    private Map<String, CostTotals> baselineCosts = Map.of();

    /** @param keys the requests in flight at the falling edge (copied) */
    OutlivingRequests(Set<Long> keys) {
        this.keys = ConcurrentHashMap.newKeySet(keys.size());
        this.keys.addAll(keys);
    }

    /**
     * Any thread: whether the request that just ended is one of these (it is then forgotten, so it
     * is judged once).
     */
    boolean endedHere(long requestKey) {
        return keys.remove(requestKey);
    }

    /** Drops the requests that ended before the analysis: their cost is in the episode. */
    void retainRunning(InFlightRequests inFlight) {
        keys.removeIf(k -> !inFlight.contains(k));
    }

    /** @return whether none is left to judge */
    boolean isEmpty() {
        return keys.isEmpty();
    }

    /** Episode lock: what the episode's analysis saw. */
    void settle(int episode, long risingNanos, long fallingNanos, Set<String> inFlightAtRise,
                Map<String, CostTotals> episodeCosts, Map<String, CostTotals> baselineCosts) {
        this.episode = episode;
        this.risingNanos = risingNanos;
        this.fallingNanos = fallingNanos;
        this.inFlightAtRise = Set.copyOf(inFlightAtRise);
        this.episodeCosts = Map.copyOf(episodeCosts);
        this.baselineCosts = Map.copyOf(baselineCosts);
    }

    int episode() {
        return episode;
    }

    long risingNanos() {
        return risingNanos;
    }

    long fallingNanos() {
        return fallingNanos;
    }

    Set<String> inFlightAtRise() {
        return inFlightAtRise;
    }

    Map<String, CostTotals> episodeCosts() {
        return episodeCosts;
    }

    Map<String, CostTotals> baselineCosts() {
        return baselineCosts;
    }
}
