package org.irmi.monitors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.Optional;

import org.irmi.monitors.EdgeEvent.FallingEdge;
import org.irmi.monitors.EdgeEvent.Recovery;
import org.irmi.sla.PoisonConfig.Resource;
import org.irmi.monitors.EdgeEvent.RisingEdge;
import org.junit.jupiter.api.Test;

class EdgeDetectorTest {

    private static final long SECOND = 1_000_000_000L;

    /** X = 30 %, Y = 50 %, R = 10 %, baseline of 4 samples, at least 3. */
    private final EdgeDetectorConfig config = EdgeDetectorConfig.custom()
            .throughputDropPercent(30).resourceRisePercent(50).recoveryPercent(10)
            .baselineSamples(4).minBaselineSamples(3).maxEpisode(Duration.ofSeconds(30)).build();
    private final EdgeDetector detector = EdgeDetector.of(config);

    private static EdgeSample sample(int second, double tp, double cpu, double gc, double alloc) {
        return new EdgeSample(second * SECOND, tp, cpu, gc, alloc);
    }

    private void steady(int seconds) {
        for (int i = 0; i < seconds; i++) {
            assertThat(detector.onSample(sample(i, 100, 1.0, 0.02, 10e6))).isEmpty();
        }
    }

    @Test
    void shouldRaiseRisingEdgeWithEvidenceWhenThroughputDropsAndGcRises() {
        steady(4);
        Optional<EdgeEvent> e = detector.onSample(sample(4, 60, 1.1, 0.10, 11e6));
        assertThat(e).containsInstanceOf(RisingEdge.class);
        RisingEdge r = (RisingEdge) e.orElseThrow();
        assertThat(r.throughputDropPercent()).isCloseTo(40.0, within(1e-9));
        assertThat(r.risePercent()).containsOnlyKeys(Resource.GC);
        assertThat(r.risePercent().get(Resource.GC)).isCloseTo(400.0, within(1e-9));
        assertThat(r.baseline().throughputPerSecond()).isEqualTo(100.0);
        assertThat(r.sample().throughputPerSecond()).isEqualTo(60.0);
        assertThat(r.atNanos()).isEqualTo(4 * SECOND);
        assertThat(detector.inEpisode()).isTrue();
        assertThat(detector.risingEdges()).isEqualTo(1);
    }

    @Test
    void shouldBuildTheBaselineFromSamplesWithTrafficBeforeAnyEdge() {
        // a server idle before its load begins: four samples without traffic fill the ring
        for (int i = 0; i < 4; i++) {
            assertThat(detector.onSample(sample(i, 0, 0.05, 0, 0))).isEmpty();
        }
        // the load ramps up: two samples with traffic, then the first cold requests stall it
        assertThat(detector.onSample(sample(4, 20, 0.5, 0.01, 1e6))).isEmpty();
        assertThat(detector.onSample(sample(5, 40, 0.8, 0.01, 2e6))).isEmpty();
        assertThat(detector.onSample(sample(6, 2, 0.9, 0.02, 1e5)))
                .as("two samples with traffic are no baseline (the ring's idle ones do not count)").isEmpty();
        // once three of the ring's samples carried traffic, a drop is an edge again
        assertThat(detector.onSample(sample(7, 100, 1.0, 0.02, 10e6))).isEmpty();
        assertThat(detector.onSample(sample(8, 100, 1.0, 0.02, 10e6))).isEmpty();
        assertThat(detector.onSample(sample(9, 10, 2.0, 0.10, 10e6))).containsInstanceOf(RisingEdge.class);
    }

    @Test
    void shouldReportTheBaselineReadyOnceMinBaselineSamplesCarriedTrafficAndAgainAfterAnExpiredEpisode() {
        assertThat(detector.baselineReady()).as("no sample yet").isFalse();
        detector.onSample(sample(0, 0, 0.05, 0, 0)); // idle: no traffic
        detector.onSample(sample(1, 100, 1.0, 0.02, 10e6));
        detector.onSample(sample(2, 100, 1.0, 0.02, 10e6));
        assertThat(detector.baselineReady()).as("two samples with traffic of the three needed").isFalse();
        detector.onSample(sample(3, 100, 1.0, 0.02, 10e6));
        assertThat(detector.baselineReady()).as("three samples with traffic").isTrue();

        detector.onSample(sample(4, 100, 1.0, 0.02, 10e6)); // the idle sample leaves the ring
        assertThat(detector.onSample(sample(5, 60, 1.1, 0.10, 11e6))).containsInstanceOf(RisingEdge.class);
        assertThat(detector.baselineReady()).as("frozen during the episode").isTrue();
        Optional<EdgeEvent> expired = detector.onSample(sample(35, 60, 1.1, 0.10, 11e6));
        assertThat(expired).containsInstanceOf(FallingEdge.class);
        assertThat(((FallingEdge) expired.orElseThrow()).reason()).isEqualTo(Recovery.EXPIRED);
        assertThat(detector.baselineReady()).as("the old normal is gone: learnt again from scratch").isFalse();
    }

    @Test
    void shouldNotRaiseWhenThroughputDropsExactlyX() {
        steady(4);
        assertThat(detector.onSample(sample(4, 70, 3.0, 0.5, 50e6))).isEmpty();
    }

    @Test
    void shouldNotRaiseWhenThroughputDropsButNoResourceRises() {
        steady(4);
        assertThat(detector.onSample(sample(4, 20, 1.0, 0.02, 10e6))).isEmpty();
        assertThat(detector.inEpisode()).isFalse();
        // That quiet sample entered the baseline: mean of 100, 100, 100, 20.
        assertThat(detector.baseline().orElseThrow().throughputPerSecond()).isEqualTo(80.0);
    }

    @Test
    void shouldNotRaiseWhenResourcesRiseWithoutAThroughputDrop() {
        steady(4);
        assertThat(detector.onSample(sample(4, 100, 4.0, 0.5, 90e6))).isEmpty();
    }

    @Test
    void shouldNotRaiseBeforeTheBaselineHasEnoughSamples() {
        steady(2);
        assertThat(detector.onSample(sample(2, 10, 4.0, 0.5, 90e6))).isEmpty();
    }

    @Test
    void shouldCompareWithTheFloorWhenTheBaselineResourceIsIdle() {
        for (int i = 0; i < 4; i++) {
            detector.onSample(sample(i, 100, 0.0, 0.0, 0.0));
        }
        // GC 0.012 against the floor 0.01 is +20 %: not enough; CPU 0.1 against the floor 0.05 is +100 %.
        RisingEdge r = (RisingEdge) detector.onSample(sample(4, 50, 0.1, 0.012, 0.0)).orElseThrow();
        assertThat(r.risePercent()).containsOnlyKeys(Resource.CPU);
        assertThat(r.risePercent().get(Resource.CPU)).isCloseTo(100.0, within(1e-9));
    }

    @Test
    void shouldRaiseFallingEdgeWhenThroughputRecoversBeyondTheHysteresis() {
        steady(4);
        detector.onSample(sample(4, 50, 3.0, 0.3, 50e6));
        // 85 is still below 100 * (1 - 10 %) = 90: the episode goes on although 85 is within X of the baseline.
        assertThat(detector.onSample(sample(5, 85, 1.0, 0.02, 10e6))).isEmpty();
        Optional<EdgeEvent> e = detector.onSample(sample(7, 90, 1.0, 0.02, 10e6));
        FallingEdge f = (FallingEdge) e.orElseThrow();
        assertThat(f.reason()).isEqualTo(Recovery.RECOVERED);
        assertThat(f.episodeNanos()).isEqualTo(3 * SECOND);
        assertThat(f.baseline().throughputPerSecond()).isEqualTo(100.0);
        assertThat(detector.inEpisode()).isFalse();
        assertThat(detector.fallingEdges()).isEqualTo(1);
    }

    @Test
    void shouldKeepTheBaselineFrozenDuringAnEpisode() {
        steady(4);
        detector.onSample(sample(4, 50, 3.0, 0.3, 50e6));
        for (int i = 5; i < 10; i++) {
            detector.onSample(sample(i, 40, 3.0, 0.3, 50e6));
        }
        assertThat(detector.baseline().orElseThrow().throughputPerSecond()).isEqualTo(100.0);
    }

    @Test
    void shouldNeedConsecutiveRecoveredSamplesWhenConfigured() {
        EdgeDetector d = EdgeDetector.of(EdgeDetectorConfig.custom().recoverySamples(2).baselineSamples(3).minBaselineSamples(3).build());
        for (int i = 0; i < 3; i++) {
            d.onSample(sample(i, 100, 1, 0.02, 10e6));
        }
        assertThat(d.onSample(sample(3, 50, 2, 0.02, 10e6))).isPresent();
        assertThat(d.onSample(sample(4, 100, 1, 0.02, 10e6))).isEmpty();
        assertThat(d.onSample(sample(5, 60, 1, 0.02, 10e6))).isEmpty();
        assertThat(d.onSample(sample(6, 100, 1, 0.02, 10e6))).isEmpty();
        assertThat(d.onSample(sample(7, 100, 1, 0.02, 10e6))).containsInstanceOf(FallingEdge.class);
    }

    @Test
    void shouldExpireAndRelearnWhenTheEpisodeNeverRecovers() {
        steady(4);
        detector.onSample(sample(4, 50, 3.0, 0.3, 50e6));
        assertThat(detector.onSample(sample(33, 50, 3.0, 0.3, 50e6))).isEmpty();
        FallingEdge f = (FallingEdge) detector.onSample(sample(34, 50, 3.0, 0.3, 50e6)).orElseThrow();
        assertThat(f.reason()).isEqualTo(Recovery.EXPIRED);
        assertThat(f.episodeNanos()).isEqualTo(30 * SECOND);
        assertThat(detector.baseline()).isEmpty();
        // The new normal (50/s) is learnt; no edge for it.
        for (int i = 35; i < 40; i++) {
            assertThat(detector.onSample(sample(i, 50, 3.0, 0.3, 50e6))).isEmpty();
        }
    }

    @Test
    void shouldRiseAgainWhenASecondEpisodeFollows() {
        steady(4);
        detector.onSample(sample(4, 50, 3.0, 0.3, 50e6));
        detector.onSample(sample(5, 100, 1.0, 0.02, 10e6));
        assertThat(detector.onSample(sample(6, 40, 1.0, 0.02, 90e6))).containsInstanceOf(RisingEdge.class);
        assertThat(detector.risingEdges()).isEqualTo(2);
    }

    @Test
    void shouldIgnoreUnwatchedResourcesWhenTheSlaNamesOnlySome() {
        EdgeDetector d = EdgeDetector.of(EdgeDetectorConfig.custom().baselineSamples(3).minBaselineSamples(3)
                .resources(java.util.List.of(Resource.GC)).build());
        for (int i = 0; i < 3; i++) {
            d.onSample(sample(i, 100, 1.0, 0.02, 10e6));
        }
        assertThat(d.onSample(sample(3, 50, 4.0, 0.02, 90e6))).isEmpty();
        RisingEdge r = (RisingEdge) d.onSample(sample(4, 50, 4.0, 0.2, 90e6)).orElseThrow();
        assertThat(r.risePercent()).containsOnlyKeys(Resource.GC);
        assertThatThrownBy(() -> EdgeDetectorConfig.custom().resources(java.util.List.of()))
                .hasMessage("resources must name at least one of [CPU, GC, ALLOCATION]");
    }

    @Test
    void shouldRefuseWhenRecoveryIsNotBelowTheDrop() {
        assertThatThrownBy(() -> EdgeDetectorConfig.custom().throughputDropPercent(20).recoveryPercent(20).build())
                .hasMessageContaining("recoveryPercent (20.0) must be below throughputDropPercent (20.0)");
        assertThatThrownBy(() -> EdgeDetectorConfig.custom().throughputDropPercent(100))
                .hasMessage("throughputDropPercent must be > 0.0 and < 100.0, was 100.0");
        assertThatThrownBy(() -> EdgeDetectorConfig.custom().baselineSamples(2).minBaselineSamples(3).build())
                .hasMessageContaining("minBaselineSamples (3) must not exceed baselineSamples (2)");
    }

    @Test
    void shouldBuildSampleFromMonitorSnapshots() {
        WindowSnapshot tp = new WindowSnapshot(200, 200, 1, 1, 2 * SECOND);
        LocalResourceSnapshot local = new LocalResourceSnapshot(1.5, 0.75, 1, 2, 3, 0.05, 1, 1, 1, 1, 1, 0);
        CostSnapshot cost = new CostSnapshot(1, 1, 1, 1, 1, 1, 1, 4e6);
        assertThat(EdgeSample.of(7, tp, local, cost)).isEqualTo(new EdgeSample(7, 100.0, 1.5, 0.05, 4e6));
    }
}
