package org.irmi.bench.experiments.internal.poison;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** The poison goals' arithmetic: episodes against their local baseline, and the episode of identification. */
class PoisonRunTest {

    /** Normal calls per second 100..120: 40/s, except 10/s during each episode's 4 s (from 105 and from 114). */
    private static BackendSeries backend() {
        StringBuilder csv = new StringBuilder("epochSecond,operation,count,errors,meanMicros,p50Micros,p99Micros,maxMicros,"
                + "gcCount,gcMillis,heapUsedBytes\n");
        for (int s = 100; s <= 120; s++) {
            boolean poisoned = (s >= 105 && s < 109) || (s >= 114 && s < 118);
            int n = poisoned ? 10 : 40;
            csv.append(s).append(",getQuote,").append(n).append(",0,1000.0,900,2000,3000,,,\n");
            csv.append(s).append(",*,").append(n).append(",0,,,,,0,0,1000\n");
        }
        return BackendSeries.parse(csv.toString(), Set.of("poison"));
    }

    private static PoisonRun run(List<PoisonExperiment.Call> episodes, long firstRejectedProbeMillis) {
        return new PoisonRun(PoisonExperiment.PAPER, Variant.COST, 1, backend(), backend(), 100, 101, episodes,
                firstRejectedProbeMillis, new long[] {1, 0, 0}, null, null, 121, 0.5);
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
    void shouldNameTheEpisodeBeforeTheFirstRejectedProbeOrCall() {
        List<PoisonExperiment.Call> threeRanThenRejected = List.of(new PoisonExperiment.Call(105_000, 109_000, 200),
                new PoisonExperiment.Call(114_000, 118_000, 200), new PoisonExperiment.Call(119_000, 119_010, 500));

        assertThat(run(threeRanThenRejected, 0).identifiedInEpisode()).as("by the first rejected call").isEqualTo(2);
        assertThat(run(threeRanThenRejected, 111_500).identifiedInEpisode()).as("by a probe after episode 1").isEqualTo(1);
        assertThat(run(threeRanThenRejected, 111_500).secondsToIdentify()).isCloseTo(6.5, within(1e-9));
        assertThat(run(List.of(new PoisonExperiment.Call(105_000, 109_000, 200)), 0).identifiedFigure()).isNaN();
    }
}
