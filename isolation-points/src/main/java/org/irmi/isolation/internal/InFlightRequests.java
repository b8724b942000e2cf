package org.irmi.isolation.internal;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The requests the poison point admitted and that have not ended, by request key: each with its
 * signature, whether it is a probation probe, and how many rising edges had been seen when it was
 * admitted. Queued requests count as in flight too, which only widens the episode's S1 and S2
 * alike.
 *
 * <p>THREADING: any thread; the reader thread admits, dispatch threads end, the episode analysis
 * reads. Reads are weakly consistent snapshots.
 */
final class InFlightRequests {

    /**
     * One admitted request.
     *
     * @param signature              its signature ({@link RequestSignatures})
     * @param probe                  whether it is a probation probe of a filtered signature
     * @param risingEdgesAtAdmission the point's rising-edge count when it was admitted
     */
    record Admitted(String signature, boolean probe, long risingEdgesAtAdmission) {
    }

    private final ConcurrentHashMap<Long, Admitted> byKey = new ConcurrentHashMap<>();

    /** Records an admitted request (replacing an earlier record of the same key). */
    void admit(long requestKey, String signature, boolean probe, long risingEdges) {
        byKey.put(requestKey, new Admitted(signature, probe, risingEdges));
    }

    /** @return the request's record, now removed, or null when it was not admitted here */
    Admitted end(long requestKey) {
        return byKey.remove(requestKey);
    }

    /** @return whether the request is in flight (admitted here and not ended) */
    boolean contains(long requestKey) {
        return byKey.containsKey(requestKey);
    }

    /** @return the keys of the requests in flight now (a snapshot) */
    Set<Long> keys() {
        return new HashSet<>(byKey.keySet());
    }

    /** @return the requests in flight now */
    int size() {
        return byKey.size();
    }

    /** @return the signatures of the requests in flight (S1 at a rising edge) */
    Set<String> signatures() {
        Set<String> s = new HashSet<>();
        for (Admitted f : byKey.values()) {
            s.add(f.signature());
        }
        return s;
    }

    /**
     * S2: the signatures of the requests in flight that were admitted after the episode's rising
     * edge. Beyond the paper, which takes every request in flight: a request that has run through
     * the whole episode and is still running when throughput recovers is what a poison looks like
     * when the falling edge comes before it ends (on a machine with more cores than the poison
     * uses, throughput recovers while it runs); counting it in S2 cleared it. In the heavier
     * DayTrader mix on 2 cores, that cleared the poison in 3 of 9 poison episodes.
     *
     * @param firstEdge the rising-edge count the episode began with
     */
    Set<String> signaturesAdmittedSince(long firstEdge) {
        Set<String> s = new HashSet<>();
        for (Admitted f : byKey.values()) {
            if (f.risingEdgesAtAdmission() >= firstEdge) {
                s.add(f.signature());
            }
        }
        return s;
    }

    /**
     * @return a concurrent set of the keys of the requests in flight whose signature is one of
     *         {@code signatures} and that were admitted before the rising-edge count reached
     *         {@code risingEdges} (the requests of S1 whose cost is not known yet at a falling edge)
     */
    Set<Long> keysAdmittedBefore(long risingEdges, Set<String> signatures) {
        Set<Long> keys = ConcurrentHashMap.newKeySet();
        for (Map.Entry<Long, Admitted> e : byKey.entrySet()) {
            if (signatures.contains(e.getValue().signature())
                    && e.getValue().risingEdgesAtAdmission() < risingEdges) {
                keys.add(e.getKey());
            }
        }
        return keys;
    }
}
