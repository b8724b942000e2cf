package org.irmi.isolation.internal;

import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.irmi.isolation.Evidence;
import org.irmi.sla.PoisonConfig;

/**
 * Names poison signatures from the episodes of the poison point. Pure: each episode's data in, a
 * verdict out; the only state is the narrowed suspect set, the candidate and the episode counts.
 *
 * <p><b>By set difference (the paper).</b> S1 are the signatures in flight at the rising edge, S2
 * those admitted since and still in flight at the falling edge; suspects = S1 - S2, less the common
 * signatures (a share of baseline requests above {@code maxCommonShare}: they can never be named,
 * so they do not take part). Over the episodes whose suspects are not empty:
 * <pre>
 *   suspects &cap; narrowed   not empty: narrowed = narrowed &cap; suspects; the candidate is dropped
 *   else, suspects &cap; candidate not empty: narrowed = candidate &cap; suspects (a switch)
 *   else:                   candidate = suspects; the narrowing stays
 * </pre>
 * (the first episode with suspects starts the narrowing). A candidate lives until the next episode
 * with suspects only, so a switch needs two episodes in a row that agree. One remaining suspect is
 * named once at least {@code confirmEpisodes} episodes in a row agreed on it (the episodes with
 * suspects since the narrowing last started or switched, the candidate's included; an episode kept
 * as a candidate does not count) and, when it completed during the episode with costs measured, it
 * passes the cost test below. Only an episode that narrowed or switched names by set difference.
 *
 * <p>Why episodes without suspects leave the narrowing alone: under a busy load the edge detector
 * also sees dips that no poison caused (a collection, a burst of heavy pages). The requests in
 * flight then are common operations; before they were set aside, such an episode emptied the
 * intersection and restarted it from unrelated suspects, and in the heavier DayTrader mix the
 * poison was never named in 2 of 3 trials.
 *
 * <p>Why a switch also restarts the count: a dip of a few common pages that passed the share test
 * (S1 = {getClosedOrders, getAccountProfileData}, S2 = {} at DayTrader's paper load) empties the
 * intersection with the poison's suspects; counted from the first episode, its one new suspect was
 * then confirmed by episodes that never saw it, and filtered (92 normal pages failed in one trial
 * of the full run on 230f366). It needs {@code confirmEpisodes} episodes of its own.
 *
 * <p>Why a disjoint episode is only a candidate: it used to replace the narrowing at once. In the
 * full run on 95ae44c (paper load, trial 3) a spurious edge between two poison calls had the one
 * suspect getOrders; it replaced the narrowing that held the poison, the next poison episode had
 * to restart from nothing, and the poison was never named before the run ended. Kept as a
 * candidate, the spurious episode is dropped when the next poison episode agrees with the narrowing.
 *
 * <p><b>By cost (beyond the paper, first episode).</b> For signature s with n_s requests completed
 * during the episode, for each resource r in {CPU, allocation}:
 * <pre>
 *   share_r(s)   = cost_r(s) / sum over all signatures of cost_r
 *   perReq_r(s)  = cost_r(s) / n_s
 *   ref_r(s)     = max(global baseline cost_r per request,
 *                      the most one request of s cost_r outside episodes, if s has &gt;= minBaselineRequests there)
 *                  (global baseline too small: the other signatures' episode cost per request)
 *   named        if share_r(s) &gt;= minCostShare and perReq_r(s) &gt;= costFactor * ref_r(s)
 * </pre>
 * Comparing s with its own baseline keeps normally heavy operations from being named during an
 * episode someone else caused; the share test keeps cheap operations from being named at all.
 * The own baseline is the costliest request of s, not its mean: an operation that is mostly served
 * from a cache and now and then computed afresh has a low mean, and one fresh computation in an
 * episode looked costly beside it. DayTrader's market summary was named and filtered so in an episode
 * without poison (full run on 480bd4d, paper load: 59 normal pages failed); its fresh computations
 * outside episodes cost as much. (Its own maximum counts only with {@code minBaselineRequests}
 * requests outside episodes, so one poison call finishing outside an episode does not make it normal.)
 *
 * <p><b>By cost, after the episode.</b> A request's cost is known when it ends. One that was in
 * flight during an episode and ended after the episode's analysis (the falling edge came while it
 * ran, and the analysis stopped waiting for it) is put through the same test when it ends, with its
 * cost added to the episode's ({@link #nameOutliving}): a poison call that outlives its episode is
 * named in that episode, not in the next one.
 *
 * <p>THREAD SAFETY: not thread-safe; the poison point calls it under its episode lock.
 */
public final class SuspectAnalyzer {
    private final PoisonConfig config;
    private Set<String> narrowed = Set.of();
    private int episodes;
    /** Episodes that had suspects (after the common signatures were set aside). */
    private int episodesWithSuspects;
    /** Episodes with suspects since the narrowing last started or switched: the ones that agree on {@link #narrowed}. */
    private int agreeingEpisodes;
    /**
     * Suspects of the last episode with suspects when they had none in common with {@link #narrowed}
     * (empty otherwise): the narrowing switches to them only if the next episode with suspects agrees.
     */
    private Set<String> candidate = Set.of();

    /** The analysis of one episode. */
    public record Verdict(int episode, Set<String> suspects, Set<String> narrowed,
                          String namedByCost, Set<String> toFilter, Evidence evidence) {
    }

    public SuspectAnalyzer(PoisonConfig config) {
        this.config = config;
    }

    /**
     * @param s1             signatures in flight at the rising edge
     * @param s2             signatures in flight at the falling edge
     * @param episodeCosts   costs of the requests completed between the edges, per signature
     * @param baselineCosts  costs of requests completed outside episodes, per signature
     * @param alreadyFiltered signatures filtered already or protected by neverFilter (never suspects)
     */
    public Verdict onEpisode(Set<String> s1, Set<String> s2, Map<String, CostTotals> episodeCosts,
                             Map<String, CostTotals> baselineCosts, Set<String> alreadyFiltered) {
        episodes++;
        CostTotals baseline = CostTotals.ZERO;
        for (CostTotals c : baselineCosts.values()) {
            baseline = baseline.plus(c);
        }
        Set<String> suspects = new TreeSet<>(s1);
        suspects.removeAll(s2);
        suspects.removeAll(alreadyFiltered);
        int common = 0;
        for (java.util.Iterator<String> it = suspects.iterator(); it.hasNext(); ) {
            if (commonShare(baselineCosts.get(it.next()), baseline) > config.naming().maxCommonShare()) {
                it.remove();
                common++;
            }
        }
        boolean agreed = false;
        if (!suspects.isEmpty()) {
            episodesWithSuspects++;
            agreed = narrow(suspects);
        }
        CostTotals episode = CostTotals.ZERO;
        for (CostTotals c : episodeCosts.values()) {
            episode = episode.plus(c);
        }

        Evidence.Builder ev = Evidence.builder().put("episode", episodes)
                .put("suspects", suspects.size()).put("commonSetAside", common)
                .put("episodesWithSuspects", episodesWithSuspects).put("agreeingEpisodes", agreeingEpisodes)
                .put("narrowed", narrowed.size()).put("candidate", candidate.size())
                .put("episodeRequests", episode.requests())
                .put("episodeCpuNanos", episode.cpuNanos())
                .put("episodeAllocatedBytes", episode.allocatedBytes())
                .put("baselineCpuPerRequest", baseline.cpuPerRequest())
                .put("baselineAllocatedPerRequest", baseline.allocatedPerRequest());

        String named = null;
        double bestShare = 0;
        for (Map.Entry<String, CostTotals> e : episodeCosts.entrySet()) {
            String sig = e.getKey();
            CostTotals c = e.getValue();
            if (c.requests() == 0 || alreadyFiltered.contains(sig)) {
                continue;
            }
            double share = costlyShare(sig, c, episode, baseline, baselineCosts.get(sig));
            if (share > bestShare) {
                bestShare = share;
                named = sig;
            }
        }
        Set<String> toFilter = new HashSet<>();
        if (named != null) {
            toFilter.add(named);
            CostTotals c = episodeCosts.get(named);
            ev.put("namedCpuPerRequest", c.cpuPerRequest())
                    .put("namedAllocatedPerRequest", c.allocatedPerRequest())
                    .put("namedCostShare", bestShare);
        } else if (agreed && narrowed.size() == 1 && agreeingEpisodes >= config.confirmEpisodes()) {
            // named on an episode with evidence only: a later dip of common operations names nothing again
            String only = narrowed.iterator().next();
            CostTotals own = baselineCosts.getOrDefault(only, CostTotals.ZERO);
            double commonShare = commonShare(own, baseline);
            CostTotals c = episodeCosts.get(only);
            boolean costKnown = episode.cpuNanos() > 0 || episode.allocatedBytes() > 0;
            boolean costOk = !costKnown || c == null || c.requests() == 0
                    || costlyPerRequest(c, episode, baseline, own);
            ev.put("narrowedCommonShare", commonShare);
            if (commonShare <= config.naming().maxCommonShare() && costOk) {
                toFilter.add(only);
            }
        }
        return new Verdict(episodes, Collections.unmodifiableSet(suspects), narrowed, named,
                Collections.unmodifiableSet(toFilter), ev.build());
    }

    /**
     * Names by cost a request that was in flight during an analysed episode and ended after the
     * analysis (its cost was not known then): the episode's cost test of the class Javadoc, with the
     * request added to the episode's costs as if it had ended within the episode. Set difference
     * takes no part, and the episode count does not change. Only with {@code attribution}.
     *
     * @param episode         the number of the episode it outlived
     * @param sig             the request's signature (not filtered already, not protected)
     * @param request         the request's cost alone (one request)
     * @param episodeCosts    the costs the episode's analysis saw, per signature
     * @param baselineCosts   the baseline the episode's analysis saw, per signature
     * @return the evidence of the naming, or empty when the request does not pass the test
     */
    public java.util.Optional<Evidence> nameOutliving(int episode, String sig, CostTotals request,
                                                      Map<String, CostTotals> episodeCosts,
                                                      Map<String, CostTotals> baselineCosts) {
        if (!config.attribution() || request.requests() == 0) {
            return java.util.Optional.empty();
        }
        CostTotals baseline = CostTotals.ZERO;
        for (CostTotals c : baselineCosts.values()) {
            baseline = baseline.plus(c);
        }
        CostTotals total = request;
        for (CostTotals c : episodeCosts.values()) {
            total = total.plus(c);
        }
        CostTotals c = episodeCosts.getOrDefault(sig, CostTotals.ZERO).plus(request);
        double share = costlyShare(sig, c, total, baseline, baselineCosts.get(sig));
        if (share <= 0) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(Evidence.builder().put("episode", episode).put("outlivedEpisode", 1)
                .put("episodeRequests", total.requests())
                .put("episodeCpuNanos", total.cpuNanos())
                .put("episodeAllocatedBytes", total.allocatedBytes())
                .put("baselineCpuPerRequest", baseline.cpuPerRequest())
                .put("baselineAllocatedPerRequest", baseline.allocatedPerRequest())
                .put("namedCpuPerRequest", c.cpuPerRequest())
                .put("namedAllocatedPerRequest", c.allocatedPerRequest())
                .put("namedCostShare", share).build());
    }

    /**
     * Narrows by one episode's suspects (not empty), as the class Javadoc's table says.
     *
     * @return whether the episode agreed with the narrowing it leaves (narrowed, switched or started it)
     */
    private boolean narrow(Set<String> suspects) {
        Set<String> withNarrowed = intersection(narrowed, suspects);
        Set<String> withCandidate = intersection(candidate, suspects);
        candidate = Set.of();
        if (narrowed.isEmpty()) {
            narrowed = Collections.unmodifiableSet(new TreeSet<>(suspects));
            agreeingEpisodes = 1;
        } else if (!withNarrowed.isEmpty()) {
            narrowed = withNarrowed;
            agreeingEpisodes++;
        } else if (!withCandidate.isEmpty()) {
            narrowed = withCandidate;
            agreeingEpisodes = 2;
        } else {
            candidate = Collections.unmodifiableSet(new TreeSet<>(suspects));
            return false;
        }
        return true;
    }

    private static Set<String> intersection(Set<String> a, Set<String> b) {
        Set<String> both = new TreeSet<>(a);
        both.retainAll(b);
        return Collections.unmodifiableSet(both);
    }

    /** @return the signature's share of the requests completed outside episodes (0 without a baseline) */
    private static double commonShare(CostTotals own, CostTotals baseline) {
        return own == null || baseline.requests() == 0 ? 0 : (double) own.requests() / baseline.requests();
    }

    /** @return the largest resource share for which s passes both tests, or 0. */
    private double costlyShare(String sig, CostTotals c, CostTotals episode, CostTotals baseline,
                               CostTotals own) {
        double best = 0;
        if (episode.cpuNanos() > 0) {
            double share = (double) c.cpuNanos() / episode.cpuNanos();
            double ref = reference(c, episode, baseline, own, true);
            if (share >= config.naming().minCostShare() && c.cpuPerRequest() >= config.naming().costFactor() * ref) {
                best = Math.max(best, share);
            }
        }
        if (episode.allocatedBytes() > 0) {
            double share = (double) c.allocatedBytes() / episode.allocatedBytes();
            double ref = reference(c, episode, baseline, own, false);
            if (share >= config.naming().minCostShare()
                    && c.allocatedPerRequest() >= config.naming().costFactor() * ref) {
                best = Math.max(best, share);
            }
        }
        return best;
    }

    private boolean costlyPerRequest(CostTotals c, CostTotals episode, CostTotals baseline,
                                     CostTotals own) {
        return c.cpuPerRequest() >= config.naming().costFactor() * reference(c, episode, baseline, own, true)
                || c.allocatedPerRequest() >= config.naming().costFactor()
                * reference(c, episode, baseline, own, false);
    }

    private double reference(CostTotals c, CostTotals episode, CostTotals baseline,
                             CostTotals own, boolean cpu) {
        double ref;
        if (baseline.requests() >= config.naming().minBaselineRequests()) {
            ref = cpu ? baseline.cpuPerRequest() : baseline.allocatedPerRequest();
        } else {
            CostTotals others = episode.minus(c);
            if (others.requests() == 0) {
                return Double.POSITIVE_INFINITY; // nothing to compare with: cannot name by cost
            }
            ref = cpu ? others.cpuPerRequest() : others.allocatedPerRequest();
        }
        if (own != null && own.requests() >= config.naming().minBaselineRequests()) {
            double mean = cpu ? own.cpuPerRequest() : own.allocatedPerRequest();
            ref = Math.max(ref, Math.max(mean, cpu ? own.maxCpuNanos() : own.maxAllocatedBytes()));
        }
        return ref;
    }

    /** @return episodes analysed so far. */
    public int episodes() {
        return episodes;
    }

    /** @return the current narrowed suspect set. */
    public Set<String> narrowed() {
        return narrowed;
    }

    /** @return the suspects of the last episode with suspects if it was disjoint from the narrowing, else empty. */
    public Set<String> candidate() {
        return candidate;
    }
}
