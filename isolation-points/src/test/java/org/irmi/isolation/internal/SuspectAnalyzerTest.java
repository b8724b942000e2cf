package org.irmi.isolation.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.irmi.sla.PoisonConfig;
import org.junit.jupiter.api.Test;

class SuspectAnalyzerTest {
    private final PoisonConfig config = PoisonConfig.custom()
            .naming(new PoisonConfig.Naming(10, 0.5, 0.05, 20)).confirmEpisodes(2).build();
    // 1000 normal requests: quote 600 (10 us, 10 KB each), buy 390, portfolio 10 (heavy: 200 KB)
    private final Map<String, CostTotals> baseline = Map.of(
            "quote", new CostTotals(600, 600 * 10_000L, 600 * 10_000L),
            "buy", new CostTotals(390, 390 * 20_000L, 390 * 20_000L),
            "portfolio", new CostTotals(10, 10 * 50_000L, 10 * 200_000L));

    @Test
    void shouldNameCostlyOffenderInTheFirstEpisode() {
        SuspectAnalyzer a = new SuspectAnalyzer(config);
        Map<String, CostTotals> episode = Map.of(
                "quote", new CostTotals(40, 40 * 10_000L, 40 * 10_000L),
                "poison", new CostTotals(1, 4_000_000_000L, 40_000_000_000L));
        var v = a.onEpisode(Set.of("quote", "poison"), Set.of("quote"), episode, baseline, Set.of());
        assertThat(v.episode()).isEqualTo(1);
        assertThat(v.namedByCost()).isEqualTo("poison");
        assertThat(v.toFilter()).containsExactly("poison");
        assertThat(v.suspects()).containsExactly("poison");
    }

    @Test
    void shouldNameARequestThatOutlivedTheEpisodeByTheEpisodesCostTestWhenItEnds() {
        SuspectAnalyzer a = new SuspectAnalyzer(config);
        Map<String, CostTotals> episode = Map.of("quote", new CostTotals(40, 40 * 10_000L, 40 * 10_000L));
        a.onEpisode(Set.of("quote", "poison"), Set.of("quote"), episode, baseline, Set.of());

        var named = a.nameOutliving(1, "poison", new CostTotals(1, 4_000_000_000L, 40_000_000_000L), episode, baseline);
        var usual = a.nameOutliving(1, "portfolio", new CostTotals(1, 50_000L, 200_000L), episode, baseline);

        assertThat(named).isPresent();
        assertThat(named.get().get("episode")).isEqualTo(1);
        assertThat(named.get().get("namedCostShare")).isGreaterThan(0.99);
        assertThat(usual).isEmpty();
        assertThat(a.episodes()).isEqualTo(1);
    }

    @Test
    void shouldNotNameARequestThatOutlivedTheEpisodeWhenAttributionIsOff() {
        SuspectAnalyzer a = new SuspectAnalyzer(PoisonConfig.custom().attribution(false)
                .naming(new PoisonConfig.Naming(10, 0.5, 0.05, 20)).build());
        Map<String, CostTotals> episode = Map.of("quote", new CostTotals(40, 40 * 10_000L, 40 * 10_000L));

        assertThat(a.nameOutliving(1, "poison", new CostTotals(1, 4_000_000_000L, 40_000_000_000L), episode, baseline))
                .isEmpty();
    }

    @Test
    void shouldNotNameNormallyHeavyOperationWhenItsOwnBaselineIsAsHeavy() {
        SuspectAnalyzer a = new SuspectAnalyzer(PoisonConfig.custom()
                .naming(DefaultPoisonMessagePointTest.naming(5)).build());
        // an episode someone else caused: portfolio dominates the allocation but is as heavy as usual
        Map<String, CostTotals> episode = Map.of(
                "quote", new CostTotals(10, 10 * 10_000L, 10 * 10_000L),
                "portfolio", new CostTotals(2, 2 * 50_000L, 2 * 200_000L));
        var v = a.onEpisode(Set.of("quote", "portfolio"), Set.of(), episode, baseline, Set.of());
        assertThat(v.namedByCost()).isNull();
        assertThat(v.toFilter()).isEmpty();
    }

    @Test
    void shouldNotNameACachedOperationForOneFreshComputationItAlsoMadeOutsideEpisodes() {
        // full run on 480bd4d, paper load: market summary served from a cache (about 5 KB), computed afresh
        // now and then (about 1 MB); one fresh computation fell into an episode without poison
        Map<String, CostTotals> withSummary = new java.util.HashMap<>(baseline);
        withSummary.put("marketSummary", new CostTotals(40, 40 * 30_000L, 39 * 5_000L + 1_080_000L, 400_000L, 1_080_000L));
        Map<String, CostTotals> episode = Map.of(
                "quote", new CostTotals(76, 76 * 10_000L, 76 * 10_000L),
                "marketSummary", new CostTotals(1, 400_000L, 1_084_000L));
        var v = new SuspectAnalyzer(config).onEpisode(Set.of(), Set.of(), episode, withSummary, Set.of());
        assertThat(v.namedByCost()).isNull();
        assertThat(v.toFilter()).isEmpty();
        // without its maximum (the mean alone: about 32 KB per request) the same episode named it
        Map<String, CostTotals> meanOnly = new java.util.HashMap<>(baseline);
        meanOnly.put("marketSummary", new CostTotals(40, 40 * 30_000L, 39 * 5_000L + 1_080_000L));
        var before = new SuspectAnalyzer(config).onEpisode(Set.of(), Set.of(), episode, meanOnly, Set.of());
        assertThat(before.namedByCost()).isEqualTo("marketSummary");
        // a poison of the same signature, ten times its costliest request outside episodes, is still named
        Map<String, CostTotals> poisoned = Map.of(
                "quote", new CostTotals(76, 76 * 10_000L, 76 * 10_000L),
                "marketSummary", new CostTotals(1, 4_000_000L, 10_900_000L));
        var poison = new SuspectAnalyzer(config).onEpisode(Set.of(), Set.of(), poisoned, withSummary, Set.of());
        assertThat(poison.namedByCost()).isEqualTo("marketSummary");
    }

    @Test
    void shouldNotNameCheapOperationWhenItsShareIsSmall() {
        SuspectAnalyzer a = new SuspectAnalyzer(config);
        Map<String, CostTotals> episode = Map.of(
                "quote", new CostTotals(100, 100 * 10_000L, 100 * 10_000L),
                "rare", new CostTotals(1, 150_000L, 150_000L)); // 15x baseline, but 13% of the cost
        var v = a.onEpisode(Set.of("quote", "rare"), Set.of("quote"), episode, baseline, Set.of());
        assertThat(v.namedByCost()).isNull();
    }

    @Test
    void shouldNarrowSuspectsOverEpisodesWhenCostsAreUnknown() {
        SuspectAnalyzer a = new SuspectAnalyzer(config);
        Map<String, CostTotals> counts = Map.of("poison", new CostTotals(1, 0, 0));
        var v1 = a.onEpisode(Set.of("poison", "rareA"), Set.of(), counts, baseline, Set.of());
        assertThat(v1.narrowed()).containsExactlyInAnyOrder("poison", "rareA");
        assertThat(v1.toFilter()).isEmpty();
        var v2 = a.onEpisode(Set.of("poison", "rareB"), Set.of("rareB"), counts, baseline, Set.of());
        assertThat(v2.narrowed()).containsExactly("poison");
        assertThat(v2.toFilter()).containsExactly("poison");
    }

    @Test
    void shouldNeverFilterCommonOperationBySetDifferenceAlone() {
        SuspectAnalyzer a = new SuspectAnalyzer(config);
        Map<String, CostTotals> none = Map.of();
        a.onEpisode(Set.of("quote"), Set.of(), none, baseline, Set.of());
        var v = a.onEpisode(Set.of("quote"), Set.of(), none, baseline, Set.of());
        // quote is 60% of the baseline requests: set aside before narrowing, so never a suspect
        assertThat(v.suspects()).isEmpty();
        assertThat(v.narrowed()).isEmpty();
        assertThat(v.toFilter()).isEmpty();
        assertThat(v.evidence().get("commonSetAside")).isEqualTo(1);
    }

    @Test
    void shouldKeepTheNarrowingThroughEpisodesOfCommonOperationsOnly() {
        // The heavier DayTrader mix: between two poison episodes the edge detector saw a dip in which only
        // common operations were in flight. It used to restart the narrowing from them.
        SuspectAnalyzer a = new SuspectAnalyzer(config);
        Map<String, CostTotals> none = Map.of();
        var v1 = a.onEpisode(Set.of("poison", "rareA"), Set.of(), none, baseline, Set.of());
        assertThat(v1.narrowed()).containsExactlyInAnyOrder("poison", "rareA");
        var dip = a.onEpisode(Set.of("quote"), Set.of(), none, baseline, Set.of());
        assertThat(dip.suspects()).isEmpty();
        assertThat(dip.narrowed()).containsExactlyInAnyOrder("poison", "rareA");
        assertThat(dip.toFilter()).isEmpty();
        var v3 = a.onEpisode(Set.of("poison", "quote"), Set.of(), none, baseline, Set.of());
        assertThat(v3.narrowed()).containsExactly("poison");
        assertThat(v3.toFilter()).containsExactly("poison");
    }

    @Test
    void shouldNotNameASuspectSeenInOneEpisodeOnlyBecauseLaterEpisodesHadNone() {
        SuspectAnalyzer a = new SuspectAnalyzer(config);
        Map<String, CostTotals> none = Map.of();
        a.onEpisode(Set.of("poison"), Set.of(), none, baseline, Set.of());
        var dip = a.onEpisode(Set.of("quote"), Set.of(), none, baseline, Set.of());
        assertThat(dip.narrowed()).containsExactly("poison");
        assertThat(dip.toFilter()).as("one episode of evidence, confirmEpisodes 2").isEmpty();
    }

    @Test
    void shouldKeepTheNarrowingWhenOneEpisodeHasNoSuspectInCommonWithIt() {
        // The full run on 95ae44c (paper load, set difference, trial 3): a spurious edge between two poison
        // calls had the one suspect getOrders; it replaced the narrowing, and the poison was never named.
        SuspectAnalyzer a = new SuspectAnalyzer(config);
        Map<String, CostTotals> none = Map.of();
        a.onEpisode(Set.of("poison", "rareA"), Set.of(), none, baseline, Set.of());
        var spurious = a.onEpisode(Set.of("quote", "getOrders"), Set.of(), none, baseline, Set.of());
        assertThat(spurious.suspects()).containsExactly("getOrders");
        assertThat(spurious.narrowed()).containsExactlyInAnyOrder("poison", "rareA");
        assertThat(a.candidate()).containsExactly("getOrders");
        assertThat(spurious.toFilter()).isEmpty();
        var back = a.onEpisode(Set.of("poison"), Set.of(), none, baseline, Set.of());
        assertThat(back.narrowed()).containsExactly("poison");
        assertThat(back.toFilter()).containsExactly("poison");
        assertThat(back.evidence().get("agreeingEpisodes")).isEqualTo(2);
    }

    @Test
    void shouldSwitchToTheCandidateWhenTheNextEpisodeHasASuspectInCommonWithIt() {
        SuspectAnalyzer a = new SuspectAnalyzer(config);
        Map<String, CostTotals> none = Map.of();
        a.onEpisode(Set.of("x"), Set.of(), none, baseline, Set.of());
        var disjoint = a.onEpisode(Set.of("y", "z"), Set.of(), none, baseline, Set.of());
        assertThat(disjoint.narrowed()).containsExactly("x");
        assertThat(disjoint.evidence().get("candidate")).isEqualTo(2);
        var agreeing = a.onEpisode(Set.of("z", "w"), Set.of(), none, baseline, Set.of());
        assertThat(agreeing.narrowed()).containsExactly("z");
        assertThat(a.candidate()).isEmpty();
        assertThat(agreeing.evidence().get("agreeingEpisodes")).isEqualTo(2);
        assertThat(agreeing.toFilter()).containsExactly("z");
    }

    @Test
    void shouldDropTheCandidateWhenTheNextEpisodeAgreesWithTheNarrowing() {
        SuspectAnalyzer a = new SuspectAnalyzer(config);
        Map<String, CostTotals> none = Map.of();
        a.onEpisode(Set.of("poison", "rareB"), Set.of(), none, baseline, Set.of());
        a.onEpisode(Set.of("rareA"), Set.of(), none, baseline, Set.of());
        a.onEpisode(Set.of("poison", "rareB"), Set.of(), none, baseline, Set.of());
        assertThat(a.candidate()).isEmpty();
        var again = a.onEpisode(Set.of("rareA"), Set.of(), none, baseline, Set.of());
        assertThat(again.narrowed()).as("the two rareA episodes were not in a row")
                .containsExactlyInAnyOrder("poison", "rareB");
        assertThat(a.candidate()).containsExactly("rareA");
        assertThat(again.toFilter()).isEmpty();
    }

    @Test
    void shouldReplaceTheCandidateWhenTheNextEpisodeAgreesWithNeither() {
        SuspectAnalyzer a = new SuspectAnalyzer(config);
        Map<String, CostTotals> none = Map.of();
        a.onEpisode(Set.of("x"), Set.of(), none, baseline, Set.of());
        a.onEpisode(Set.of("y"), Set.of(), none, baseline, Set.of());
        var third = a.onEpisode(Set.of("z"), Set.of(), none, baseline, Set.of());
        assertThat(third.narrowed()).containsExactly("x");
        assertThat(a.candidate()).containsExactly("z");
        var fourth = a.onEpisode(Set.of("y"), Set.of(), none, baseline, Set.of());
        assertThat(fourth.narrowed()).containsExactly("x");
        assertThat(a.candidate()).containsExactly("y");
    }

    @Test
    void shouldNotNameASuspectSeenInOneDisjointEpisodeBetweenPoisonEpisodes() {
        // The full run on 230f366 (paper load, set difference, trial 2): a dip of rare pages between two
        // poison episodes restarted the narrowing from them, and the episode count carried over named
        // one of them (getAccountProfileData) at once.
        SuspectAnalyzer a = new SuspectAnalyzer(config);
        Map<String, CostTotals> none = Map.of();
        a.onEpisode(Set.of("poison"), Set.of(), none, baseline, Set.of());
        var dip = a.onEpisode(Set.of("rareA"), Set.of(), none, baseline, Set.of());
        assertThat(dip.narrowed()).containsExactly("poison");
        assertThat(dip.toFilter()).as("rareA was a suspect in one episode only").isEmpty();
        var back = a.onEpisode(Set.of("poison"), Set.of(), none, baseline, Set.of());
        assertThat(back.toFilter()).containsExactly("poison");
    }

    @Test
    void shouldNotNameASuspectOfASwitchedNarrowingBeforeItHadItsOwnConfirmingEpisodes() {
        SuspectAnalyzer a = new SuspectAnalyzer(PoisonConfig.custom()
                .naming(new PoisonConfig.Naming(10, 0.5, 0.05, 20)).confirmEpisodes(3).build());
        Map<String, CostTotals> none = Map.of();
        a.onEpisode(Set.of("x", "y"), Set.of(), none, baseline, Set.of());
        a.onEpisode(Set.of("x", "y"), Set.of(), none, baseline, Set.of());
        a.onEpisode(Set.of("rareA"), Set.of(), none, baseline, Set.of());
        var switched = a.onEpisode(Set.of("rareA"), Set.of(), none, baseline, Set.of());
        assertThat(switched.narrowed()).containsExactly("rareA");
        assertThat(switched.evidence().get("agreeingEpisodes")).as("the candidate's and its own").isEqualTo(2);
        assertThat(switched.toFilter()).isEmpty();
        var confirmed = a.onEpisode(Set.of("rareA"), Set.of(), none, baseline, Set.of());
        assertThat(confirmed.toFilter()).containsExactly("rareA");
    }

    @Test
    void shouldNeverSuspectExcludedSignatures() {
        SuspectAnalyzer a = new SuspectAnalyzer(config);
        Map<String, CostTotals> episode = Map.of(
                "quote", new CostTotals(40, 40 * 10_000L, 40 * 10_000L),
                "admin", new CostTotals(1, 4_000_000_000L, 40_000_000_000L));
        var v = a.onEpisode(Set.of("admin"), Set.of(), episode, baseline, Set.of("admin"));
        assertThat(v.suspects()).isEmpty();
        assertThat(v.toFilter()).isEmpty();
    }

    @Test
    void shouldCompareWithOtherEpisodeRequestsWhenBaselineIsTooSmall() {
        SuspectAnalyzer a = new SuspectAnalyzer(config);
        Map<String, CostTotals> episode = Map.of(
                "quote", new CostTotals(10, 10 * 1_000L, 10 * 1_000L),
                "poison", new CostTotals(1, 1_000_000L, 1_000_000L));
        var v = a.onEpisode(Set.of("poison"), Set.of(), episode, Map.of(), Set.of());
        assertThat(v.namedByCost()).isEqualTo("poison");
    }
}
