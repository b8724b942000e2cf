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
    void shouldRestartNarrowingWhenIntersectionBecomesEmpty() {
        SuspectAnalyzer a = new SuspectAnalyzer(config);
        a.onEpisode(Set.of("x"), Set.of(), Map.of(), baseline, Set.of());
        var v = a.onEpisode(Set.of("y", "z"), Set.of(), Map.of(), baseline, Set.of());
        assertThat(v.narrowed()).containsExactlyInAnyOrder("y", "z");
    }

    @Test
    void shouldNotNameASuspectOfARestartedNarrowingBeforeItHadItsOwnConfirmingEpisodes() {
        // The full run on 230f366 (paper load, set difference, trial 2): a dip of rare pages between two
        // poison episodes restarted the narrowing from them, and the episode count carried over named
        // one of them (getAccountProfileData) at once.
        SuspectAnalyzer a = new SuspectAnalyzer(config);
        Map<String, CostTotals> none = Map.of();
        a.onEpisode(Set.of("poison"), Set.of(), none, baseline, Set.of());
        var dip = a.onEpisode(Set.of("rareA"), Set.of(), none, baseline, Set.of());
        assertThat(dip.narrowed()).containsExactly("rareA");
        assertThat(dip.toFilter()).as("rareA was a suspect in one episode only").isEmpty();
        assertThat(dip.evidence().get("agreeingEpisodes")).isEqualTo(1);
        var back = a.onEpisode(Set.of("poison"), Set.of(), none, baseline, Set.of());
        assertThat(back.narrowed()).containsExactly("poison");
        assertThat(back.toFilter()).as("restarted again: one episode of its own").isEmpty();
        var confirmed = a.onEpisode(Set.of("poison", "rareB"), Set.of(), none, baseline, Set.of());
        assertThat(confirmed.narrowed()).containsExactly("poison");
        assertThat(confirmed.toFilter()).containsExactly("poison");
        assertThat(confirmed.evidence().get("agreeingEpisodes")).isEqualTo(2);
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
