package org.irmi.monitors;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;

import org.irmi.monitors.EdgeEvent.RisingEdge;
import org.irmi.sla.PoisonConfig.Resource;
import org.junit.jupiter.api.Test;

/**
 * What the edge detector sees when another process takes the CPU, with the bundled DayTrader SLA's
 * thresholds (drop 15 %, rise 50 %, 8 baseline samples of 0.5 s, two samples in a row). The samples
 * are those of a real run (`./irmi daytrader --orb irmi`, httperf at the paper's load, a CPU burner
 * taking both cores 2 s in every 10): about 170 requests/s on 0.05 cores, 2 MB/s allocated, the web
 * tier and httperf using 0.3 cores; during a burst throughput fell to 100-140/s while the market
 * summary (recomputed every 20 s: 10 MB, 0.1-0.3 cores) or a young collection landed in the same
 * sample, and before this detector knew the other processes' CPU those made 11 episodes in 5 minutes.
 */
class EdgeDetectorContentionTest {

    private static final long HALF_SECOND = 500_000_000L;

    private final EdgeDetector detector = EdgeDetector.of(EdgeDetectorConfig.custom()
            .throughputDropPercent(15).resourceRisePercent(50).recoveryPercent(7.5)
            .baselineSamples(8).minBaselineSamples(8).risingSamples(2).maxEpisode(Duration.ofSeconds(60)).build());
    private int n;

    private Optional<EdgeEvent> feed(double tp, double cpu, double gc, double alloc, double others) {
        return detector.onSample(new EdgeSample(n++ * HALF_SECOND, tp, cpu, gc, alloc, others));
    }

    private void steady(int samples, double others) {
        for (int i = 0; i < samples; i++) {
            assertThat(feed(170, 0.05, 0.0, 2e6, others)).isEmpty();
        }
    }

    @Test
    void shouldOpenNoEpisodeWhenAnotherProcessTakesTheCpuWhileOrdinaryWorkRises() {
        steady(8, 0.3);
        // a 2 s burst of the burner on both cores: the backend's throughput falls; in the same
        // samples the market summary's allocation and CPU, then a collection stretched in wall time
        assertThat(feed(115, 0.12, 0.0, 1.0e7, 2.2)).isEmpty();
        assertThat(feed(121, 0.36, 0.0, 1.0e7, 2.0)).isEmpty();
        assertThat(feed(122, 0.09, 0.048, 1.8e6, 2.3)).isEmpty();
        assertThat(feed(100, 0.09, 0.037, 1.4e6, 2.4)).isEmpty();
        steady(12, 0.3);

        assertThat(detector.risingEdges()).isZero();
        assertThat(detector.contendedSamples()).isEqualTo(4);
    }

    @Test
    void shouldOpenTheEpisodeWhenThisProcessTakesTheCpu() {
        steady(8, 0.3);
        // the poison: one thread allocating in a tight loop; the web tier and httperf wait for replies
        assertThat(feed(40, 0.9, 0.20, 1.5e6, 0.1)).isEmpty();
        Optional<EdgeEvent> e = feed(25, 1.0, 0.25, 1.2e6, 0.1);

        assertThat(e).containsInstanceOf(RisingEdge.class);
        assertThat(((RisingEdge) e.orElseThrow()).risePercent()).containsKeys(Resource.CPU, Resource.GC);
        assertThat(detector.contendedSamples()).isZero();
    }

    @Test
    void shouldStillSeeAPoisonWhenABuildHasRunLongEnoughToBeInTheBaseline() {
        steady(8, 1.6); // a build beside the server for minutes: part of the normal
        assertThat(feed(60, 0.9, 0.20, 1.5e6, 1.2)).isEmpty();
        assertThat(feed(50, 0.95, 0.22, 1.5e6, 1.1)).containsInstanceOf(RisingEdge.class);
    }

    @Test
    void shouldOpenNoEpisodeWhenTheDropAndRiseFillOneSample() {
        steady(8, 0.3);
        // one heavy ordinary request (or one collection, or one compilation) and a dip in the load
        assertThat(feed(120, 0.3, 0.05, 1.0e7, 0.3)).isEmpty();
        assertThat(feed(175, 0.05, 0.0, 2e6, 0.3)).isEmpty();
        steady(8, 0.3);

        assertThat(detector.risingEdges()).isZero();
    }

    @Test
    void shouldTakeTheContentionForPoisonWhenTheOtherProcessesCpuIsUnknown() {
        // what the detector did before it was given the other processes' CPU (NaN: not measured)
        steady(8, Double.NaN);
        assertThat(feed(122, 0.09, 0.048, 1.8e6, Double.NaN)).isEmpty();
        assertThat(feed(100, 0.09, 0.037, 1.4e6, Double.NaN)).containsInstanceOf(RisingEdge.class);
    }
}
