package org.irmi.bench.experiments.internal.slowclient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.irmi.bench.experiments.internal.Samples;
import org.junit.jupiter.api.Test;

/**
 * The slow-client goals' arithmetic: the stressed over unloaded ratios, and the unloaded phase a
 * trial needs to have a baseline at all. Phases: unloaded 10..20 s, stressed (settled) 25..30 s.
 */
class TrialTest {

    /**
     * A trial whose primary received {@code unloadedEvents} events in the 10 s unloaded phase
     * (nominal: 100/s, one every {@value SlowClientExperiment#EVENT_PERIOD_MILLIS} ms) with
     * {@code unloadedQueue} events queued at each sample of it. The client's calls took 1 ms
     * unloaded and 3 ms stressed; the primary collected once per 100 fetches unloaded and 6 times
     * stressed.
     */
    private static Trial trial(long unloadedEvents, long unloadedQueue) {
        // wall in out fetches queued gc gcMillis heapMb forwardErrors eliminated workerOom
        Samples primary = Samples.parse(List.of(
                "10000 0 0 0 " + unloadedQueue + " 0 0 50 0 0 0",
                "15000 " + unloadedEvents / 2 + " 0 500 " + unloadedQueue + " 5 10 50 0 0 0",
                "20000 " + unloadedEvents + " 0 1000 " + unloadedQueue + " 10 20 50 0 0 0",
                "25000 " + (unloadedEvents + 500) + " 0 1500 30 15 30 80 0 0 0",
                "30000 " + (unloadedEvents + 1000) + " 0 2000 40 45 90 90 0 0 0"));
        // wall calls rttMicros errors
        Samples client = Samples.parse(List.of(
                "10000 0 0 0", "20000 100 100000 0", "25000 150 150000 0", "30000 200 300000 0"));
        Samples none = Samples.parse(List.of());
        return new Trial(Setup.PLAIN, 1, primary, client, none, none, none, 10_000, 10_000, 20_000, 25_000, 30_000,
                0.5, 0.5);
    }

    @Test
    void shouldDivideStressedByUnloadedWhenTheUnloadedPhaseIsABaseline() {
        Trial t = trial(1000, 2);

        assertThat(t.invalidReason()).isNull();
        assertThat(t.rttRatio()).as("3 ms / 1 ms").isCloseTo(3.0, within(1e-9));
        assertThat(t.gcRatio()).as("6 / 1 GCs per 100 calls").isCloseTo(6.0, within(1e-9));
    }

    @Test
    void shouldBeInvalidWhenTheSourceSentUnderHalfTheNominalRateUnloaded() {
        Trial t = trial(490, 2); // 49/s of 100/s

        assertThat(t.invalidReason()).contains("the event source stalled").contains("49 events/s unloaded instead of 100");
        assertThat(t.rttRatio()).isNaN();
        assertThat(t.gcRatio()).isNaN();
        assertThat(trial(500, 2).invalidReason()).as("exactly half the nominal rate").isNull();
    }

    @Test
    void shouldBeInvalidWhenTheQueueHeldMoreThanFiveEventsOnAverageUnloaded() {
        Trial t = trial(1000, 6);

        assertThat(t.invalidReason()).contains("events on average").contains("could not keep up even unloaded");
        assertThat(t.rttRatio()).isNaN();
        assertThat(t.gcRatio()).isNaN();
        assertThat(trial(1000, (long) Trial.UNLOADED_MAX_MEAN_QUEUE).invalidReason()).as("a mean of exactly 5").isNull();
    }
}
