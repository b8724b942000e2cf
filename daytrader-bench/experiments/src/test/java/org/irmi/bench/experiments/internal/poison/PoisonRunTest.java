package org.irmi.bench.experiments.internal.poison;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Set;
import java.util.function.IntUnaryOperator;

import org.junit.jupiter.api.Test;

/** The poison goals' arithmetic: episodes against their local baseline, and the episode of identification. */
class PoisonRunTest {

    /** Normal calls per second 100..120: 40/s, except 10/s during each episode's 4 s (from 105 and from 114). */
    private static BackendSeries backend() {
        return backend(100, s -> (s >= 105 && s < 109) || (s >= 114 && s < 118) ? 10 : 40);
    }

    /** Normal calls per second from {@code first} to 120, as {@code callsAt} gives them. */
    private static BackendSeries backend(int first, IntUnaryOperator callsAt) {
        StringBuilder csv = new StringBuilder("epochSecond,operation,count,errors,meanMicros,p50Micros,p99Micros,maxMicros,"
                + "gcCount,gcMillis,heapUsedBytes\n");
        for (int s = first; s <= 120; s++) {
            int n = callsAt.applyAsInt(s);
            if (n == 0) {
                continue; // a second without calls has no row, as in the deployment's CSV
            }
            csv.append(s).append(",getQuote,").append(n).append(",0,1000.0,900,2000,3000,,,\n");
            csv.append(s).append(",*,").append(n).append(",0,,,,,0,0,1000\n");
        }
        return BackendSeries.parse(csv.toString(), Set.of("poison"));
    }

    private static PoisonRun run(List<PoisonExperiment.Call> episodes, long firstRejectedProbeMillis) {
        return run(backend(), episodes, firstRejectedProbeMillis);
    }

    private static PoisonRun run(BackendSeries backend, List<PoisonExperiment.Call> episodes, long firstRejectedProbeMillis) {
        return new PoisonRun(PoisonExperiment.PAPER, Variant.COST, 1, backend, backend, 100, 101, episodes,
                firstRejectedProbeMillis, new long[] {1, 0, 0}, null, null, 121, 0.5);
    }

    @Test
    void shouldReadTheDeepestSecondOfEachEpisodeAndTheSameFigureWithoutPoisonAsItsControl() {
        // 40/s; the 4 s before the first episode (101-104) hold one slow second (101) of 30; the first episode
        // (105-108) runs 36, 12, 20, 36; the second (114-117) has a second with no calls at all
        int[] episode1 = {36, 12, 20, 36};
        int[] episode2 = {20, 0, 20, 20};
        BackendSeries series = backend(90, s -> s == 101 ? 30
                : s >= 105 && s < 109 ? episode1[s - 105]
                : s >= 114 && s < 118 ? episode2[s - 114] : 40);
        PoisonRun r = run(series, List.of(new PoisonExperiment.Call(105_400, 109_400, 200),
                new PoisonExperiment.Call(114_200, 118_200, 200)), 0);

        assertThat(r.episodeDeepestPercent(0)).as("12 of the baseline's 40").isCloseTo(30.0, within(1e-9));
        assertThat(r.episodeDeepestPercent(1)).as("a second without calls is a second at 0").isCloseTo(0.0, within(1e-9));
        assertThat(r.laterEpisodesDeepestPercent()).isCloseTo(0.0, within(1e-9));
        // the episode's mean stays the gentler figure: (36 + 12 + 20 + 36) / 4 of 40
        assertThat(r.episodePercent(0)).isCloseTo(65.0, within(1e-9));
        // control: 101..104 against 98..100, all at 40 but 101 at 30
        assertThat(r.controlDeepestPercent()).isCloseTo(75.0, within(1e-9));
    }

    @Test
    void shouldMeasureEachEpisodeAgainstTheThreeSecondsBeforeIt() {
        PoisonRun r = run(List.of(new PoisonExperiment.Call(105_000, 109_000, 200),
                new PoisonExperiment.Call(114_000, 118_000, 200)), 0);

        // 10 calls/s in the episode's 4 s against 40/s in the 3 s before it
        assertThat(r.episodePercent(0)).isCloseTo(25.0, within(1e-9));
        assertThat(r.episodePercent(1)).isCloseTo(25.0, within(1e-9));
        assertThat(r.laterEpisodesPercent()).as("episodes after the first").isCloseTo(25.0, within(1e-9));
        // the steady phase (101 up to the first episode) ran at 40/s; after (from 2 s past the last episode) too
        assertThat(r.steady()).isCloseTo(40.0, within(1e-9));
        assertThat(r.afterPercent()).isCloseTo(100.0, within(1e-9));
    }

    @Test
    void shouldLeaveOutAnEpisodeWhoseBaselineHadNoCallsWhenAveraging() {
        // no calls at all in 111..113, the 3 s before the second episode (114): it has no baseline
        BackendSeries series = backend(100, s -> s >= 111 && s < 114 ? 0
                : (s >= 105 && s < 109) || (s >= 114 && s < 118) ? 10 : 40);
        PoisonRun r = run(series, List.of(new PoisonExperiment.Call(105_000, 109_000, 200),
                new PoisonExperiment.Call(114_000, 118_000, 200)), 0);

        assertThat(r.episodePercent(1)).isNaN();
        assertThat(r.allEpisodesPercent()).as("the first episode's 25% alone").isCloseTo(25.0, within(1e-9));
        assertThat(r.laterEpisodesPercent()).as("no later episode could be measured").isNaN();
    }

    @Test
    void shouldNameTheEpisodeBeforeTheFirstRejectedProbeOrCall() {
        List<PoisonExperiment.Call> threeRanThenRejected = List.of(new PoisonExperiment.Call(105_000, 109_000, 200),
                new PoisonExperiment.Call(114_000, 118_000, 200), new PoisonExperiment.Call(119_000, 119_010, 500));

        assertThat(run(threeRanThenRejected, 0).identifiedInEpisode()).as("by the first rejected call").isEqualTo(2);
        assertThat(run(threeRanThenRejected, 111_500).identifiedInEpisode()).as("by a probe after episode 1").isEqualTo(1);
        assertThat(run(threeRanThenRejected, 111_500).secondsToIdentify()).isCloseTo(6.5, within(1e-9));
        assertThat(run(List.of(new PoisonExperiment.Call(105_000, 109_000, 200)), 0).identifiedFigure())
                .as("never identified in 1 episode: counts as not within it").isEqualTo(2.0);
    }
}
