package org.irmi.bench.experiments.internal.normalday;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.irmi.bench.experiments.RunLength;
import org.irmi.bench.experiments.Spread;
import org.irmi.bench.experiments.internal.poison.PoisonExperiment;
import org.irmi.bench.experiments.internal.poison.Variant;
import org.junit.jupiter.api.Test;

class NormalDayReportTest {

    private static NormalDayRun run(Variant v, int rep, double throughput, double p99) {
        return new NormalDayRun(PoisonExperiment.HEAVY, v, rep, throughput, p99, 1, 100, 100, 0, 0, 0, Double.NaN, Double.NaN, 0,
                Double.NaN, 0, 1, 60, Boolean.TRUE, 1);
    }

    @Test
    void shouldPairEachIrmiTrialWithThePlainTrialOfItsRepetitionWhenComputingRatios() {
        List<NormalDayRun> plain = List.of(run(Variant.PLAIN, 1, 1000, 10), run(Variant.PLAIN, 2, 2000, 20));
        List<NormalDayRun> irmi = List.of(run(Variant.COST, 2, 1900, 21), run(Variant.COST, 1, 1000, 10));

        Spread tput = NormalDayReport.ratios(plain, irmi, NormalDayRun::throughput);

        assertThat(tput.n()).isEqualTo(2);
        assertThat(tput.min()).isEqualTo(0.95);
        assertThat(tput.max()).isEqualTo(1.0);
    }

    @Test
    void shouldSkipARepetitionWhenItsPlainTrialIsMissing() {
        Spread p99 = NormalDayReport.ratios(List.of(run(Variant.PLAIN, 1, 1000, 10)),
                List.of(run(Variant.COST, 1, 1000, 11), run(Variant.COST, 2, 1000, 30)), NormalDayRun::p99Millis);

        assertThat(p99.n()).isEqualTo(1);
        assertThat(p99.median()).isCloseTo(1.1, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void shouldRunBothLoadsAndEveryPoisonSlaWhenFullAndTheHeavyMixOnlyWhenTiny() {
        assertThat(NormalDayExperiment.plan(RunLength.FULL)).hasSize(6)
                .extracting(NormalDayExperiment.Cell::variant).contains(Variant.SET_DIFFERENCE);
        assertThat(NormalDayExperiment.plan(RunLength.TINY)).extracting(c -> c.mix().name()).containsOnly("heavy");
    }

    @Test
    void shouldReadTheEpisodeCountAndTheEpisodesThatNamedASuspectFromTheDashboardState() {
        String state = "{\"poison\":{\"episodes\":3,\"inEpisode\":false,\"episodeReports\":[{\"episode\":3,\"suspects\":[]},"
                + "{\"episode\":2,\"suspects\":[\"IDL:x:1.0#poison\"]},{\"episode\":1,\"suspects\":[]}]}}";

        assertThat(NormalDayTrial.episodesOf(state)).isEqualTo(3);
        assertThat(NormalDayTrial.namedSuspects(state)).isEqualTo(1);
        assertThat(NormalDayTrial.episodesOf("")).isNaN();
    }
}
