package org.irmi.isolation.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.irmi.isolation.Decision;
import org.irmi.isolation.Evidence;
import org.irmi.isolation.IncomingRequest;
import org.irmi.isolation.MinorCodes;
import org.irmi.sla.ArgumentSignature;
import org.irmi.sla.PoisonConfig;
import org.irmi.sla.ProbationConfig;
import org.irmi.monitors.ManualClock;
import org.irmi.sla.OperationPattern;
import org.junit.jupiter.api.Test;

class DefaultPoisonMessagePointTest {
    private static final long MS = 1_000_000L;
    private final ManualClock clock = new ManualClock();
    private final TestModules.Recording module = TestModules.poisonRejecting();
    private final DecisionRecorder recorder = new DecisionRecorder(clock::wallMillis);
    private int nextId;

    private DefaultPoisonMessagePoint point(PoisonConfig config) {
        return new DefaultPoisonMessagePoint(config, module, recorder, clock::nanoTime);
    }

    /** The default naming thresholds with {@code minBaselineRequests} requests. */
    static PoisonConfig.Naming naming(int minBaselineRequests) {
        PoisonConfig.Naming d = PoisonConfig.Naming.DEFAULT;
        return new PoisonConfig.Naming(d.costFactor(), d.minCostShare(), d.maxCommonShare(), minBaselineRequests);
    }

    private PoisonConfig config() {
        return PoisonConfig.custom().coolDown(Duration.ofSeconds(10))
                .probation(new ProbationConfig(1, Duration.ofSeconds(2))).naming(naming(10)).build();
    }

    private IncomingRequest req(String op) {
        return req(op, null);
    }

    private IncomingRequest req(String op, byte[] args) {
        return new IncomingRequest(7, nextId++, "10.0.0.1:5000", "TradePOA/trade", op, 100, true,
                null, args);
    }

    /** Runs n cheap requests of op to completion. */
    private void normal(DefaultPoisonMessagePoint p, String op, int n) {
        for (int i = 0; i < n; i++) {
            IncomingRequest r = req(op);
            assertThat(p.onRequestHeader(r)).isEqualTo(Decision.PROCEED);
            p.onDispatchEnd(r.requestKey(), 20_000, 8_000);
        }
    }

    @Test
    void shouldFilterPoisonInTheFirstEpisodeWhenCostNamesIt() {
        DefaultPoisonMessagePoint p = point(config());
        normal(p, "quote", 50);
        normal(p, "buy", 50);
        IncomingRequest poison = req("poison");
        IncomingRequest inFlightQuote = req("quote");
        p.onRequestHeader(poison);
        p.onRequestHeader(inFlightQuote);
        p.onRisingEdge(clock.nanoTime(), Evidence.NONE);
        p.onDispatchEnd(inFlightQuote.requestKey(), 20_000, 8_000);
        normal(p, "quote", 5);
        clock.advance(Duration.ofSeconds(4));
        p.onDispatchEnd(poison.requestKey(), 4_000_000_000L, 40_000_000_000L);
        p.onFallingEdge(clock.nanoTime(), Evidence.NONE);

        assertThat(p.filtered()).containsExactly("poison");
        assertThat(p.episodeReports()).hasSize(1);
        assertThat(p.episodeReports().get(0).namedByCost()).isEqualTo("poison");
        assertThat(p.episodeReports().get(0).inFlightAtRise()).containsExactlyInAnyOrder("poison",
                "quote");
        Decision d = p.onRequestHeader(req("poison"));
        assertThat(d).isInstanceOf(Decision.Reject.class);
        assertThat(((Decision.Reject) d).minor()).isEqualTo(MinorCodes.POISON_FILTERED);
        assertThat(p.onRequestHeader(req("quote"))).isEqualTo(Decision.PROCEED);
        assertThat(p.onRequestHeader(req("buy"))).isEqualTo(Decision.PROCEED);
    }

    /** Runs n cheap requests of op whose CPU time only every 16th reports (the ORB samples it). */
    private void sampled(DefaultPoisonMessagePoint p, String op, int n) {
        for (int i = 0; i < n; i++) {
            IncomingRequest r = req(op);
            p.onRequestHeader(r);
            p.onDispatchEnd(r.requestKey(), nextId % 16 == 0 ? 20_000 : -1, 8_000);
        }
    }

    @Test
    void shouldNameACpuHeavyPoisonWhenTheCpuTimeOfBusyOperationsIsSampled() {
        DefaultPoisonMessagePoint p = point(config());
        sampled(p, "quote", 400);
        IncomingRequest poison = req("poison");
        p.onRequestHeader(poison);
        p.onRisingEdge(clock.nanoTime(), Evidence.NONE);
        sampled(p, "quote", 400);
        clock.advance(Duration.ofSeconds(2));
        // same allocation as a quote: only its CPU time (measured: a rare request) tells it apart
        p.onDispatchEnd(poison.requestKey(), 500_000_000L, 8_000);
        p.onFallingEdge(clock.nanoTime(), Evidence.NONE);

        assertThat(p.filtered()).containsExactly("poison");
        assertThat(p.episodeReports().get(0).namedByCost()).isEqualTo("poison");
    }

    @Test
    void shouldNotNameASampledBusyOperationWhoseRequestsCostTheSameAsBefore() {
        DefaultPoisonMessagePoint p = point(config());
        sampled(p, "quote", 400);
        sampled(p, "buy", 400);
        IncomingRequest quote = req("quote");
        p.onRequestHeader(quote);
        p.onRisingEdge(clock.nanoTime(), Evidence.NONE);
        sampled(p, "quote", 800);
        clock.advance(Duration.ofSeconds(2));
        p.onDispatchEnd(quote.requestKey(), -1, 8_000);
        p.onFallingEdge(clock.nanoTime(), Evidence.NONE);

        assertThat(p.filtered()).isEmpty();
    }

    @Test
    void shouldWaitForS1RequestsStillRunningAtTheFallingEdge() {
        DefaultPoisonMessagePoint p = point(config());
        normal(p, "quote", 50);
        IncomingRequest poison = req("poison");
        p.onRequestHeader(poison);
        p.onRisingEdge(clock.nanoTime(), Evidence.NONE);
        normal(p, "quote", 5);
        clock.advance(Duration.ofSeconds(2));
        p.onFallingEdge(clock.nanoTime(), Evidence.NONE);
        assertThat(p.episodeReports()).isEmpty();
        p.onDispatchEnd(poison.requestKey(), 4_000_000_000L, 40_000_000_000L);
        assertThat(p.episodeReports()).hasSize(1);
        assertThat(p.filtered()).containsExactly("poison");
    }

    @Test
    void shouldNotClearARequestThatRanThroughTheWholeEpisodeByCountingItInS2() {
        // attribution off: the set difference alone. The poison was admitted before the rising edge and is
        // still running at the falling edge (throughput recovered while it ran); a quote admitted during the
        // episode is still running too. S2 holds the quote only, so the poison stays a suspect.
        DefaultPoisonMessagePoint p = point(PoisonConfig.custom().attribution(false).naming(naming(10)).build());
        normal(p, "quote", 50);
        IncomingRequest poison = req("poison");
        p.onRequestHeader(poison);
        p.onRisingEdge(clock.nanoTime(), Evidence.NONE);
        IncomingRequest lateQuote = req("quote");
        p.onRequestHeader(lateQuote);
        clock.advance(Duration.ofSeconds(2));
        p.onFallingEdge(clock.nanoTime(), Evidence.NONE);
        p.onDispatchEnd(poison.requestKey(), 4_000_000_000L, 40_000_000_000L);

        assertThat(p.episodeReports()).hasSize(1);
        assertThat(p.episodeReports().get(0).suspects()).containsExactly("poison");
    }

    @Test
    void shouldContinueTheEpisodeWhenTheProblemReturnsWhileS1RequestsStillRun() {
        DefaultPoisonMessagePoint p = point(config());
        normal(p, "quote", 50);
        IncomingRequest poison = req("poison");
        p.onRequestHeader(poison);
        p.onRisingEdge(clock.nanoTime(), Evidence.NONE);
        clock.advance(Duration.ofSeconds(2));
        p.onFallingEdge(clock.nanoTime(), Evidence.NONE); // poison still running: analysis waits
        clock.advance(Duration.ofMillis(500));
        p.onRisingEdge(clock.nanoTime(), Evidence.NONE);  // and the problem is back
        assertThat(p.episodeReports()).isEmpty();
        clock.advance(Duration.ofSeconds(2));
        p.onDispatchEnd(poison.requestKey(), 4_000_000_000L, 40_000_000_000L);
        p.onFallingEdge(clock.nanoTime(), Evidence.NONE);
        assertThat(p.episodeReports()).hasSize(1);
        assertThat(p.filtered()).containsExactly("poison");
    }

    @Test
    void shouldAnalyseAtTheDeadlineWhenS1RequestsNeverFinish() {
        DefaultPoisonMessagePoint p = point(config());
        normal(p, "quote", 50);
        IncomingRequest stuck = req("stuck");
        p.onRequestHeader(stuck);
        p.onRisingEdge(clock.nanoTime(), Evidence.NONE);
        clock.advance(Duration.ofSeconds(1));
        p.onFallingEdge(clock.nanoTime(), Evidence.NONE);
        p.tick(clock.nanoTime() + 2_000 * MS);
        assertThat(p.episodeReports()).isEmpty();
        p.tick(clock.nanoTime() + 3_000 * MS);
        assertThat(p.episodeReports()).hasSize(1);
        assertThat(p.filtered()).isEmpty(); // no cost evidence, one episode: nothing is filtered
    }

    @Test
    void shouldNamePoisonByCostWhenItEndsAfterItsEpisodeWasAnalysedWithoutIt() {
        // throughput came back 1.2 s into a 6 s poison call, the analysis stopped waiting for it at its
        // deadline (3.4 s after the falling edge), and its cost went to the baseline: nothing named it
        // before the next poison call had run
        DefaultPoisonMessagePoint p = point(config());
        normal(p, "quote", 50);
        IncomingRequest poison = req("poison");
        p.onRequestHeader(poison);
        p.onRisingEdge(clock.nanoTime(), Evidence.NONE);
        normal(p, "quote", 5);
        clock.advance(Duration.ofMillis(1_200));
        p.onFallingEdge(clock.nanoTime(), Evidence.NONE);
        clock.advance(Duration.ofMillis(3_500));
        p.tick(clock.nanoTime());
        assertThat(p.episodeReports()).hasSize(1);
        assertThat(p.filtered()).isEmpty();

        clock.advance(Duration.ofMillis(1_300));
        p.onDispatchEnd(poison.requestKey(), 6_000_000_000L, 60_000_000_000L);

        assertThat(p.filtered()).containsExactly("poison");
        assertThat(p.episodes()).isEqualTo(1);
        assertThat(p.episodeReports()).hasSize(2);
        assertThat(p.episodeReports().get(1).episode()).isEqualTo(1);
        assertThat(p.episodeReports().get(1).namedByCost()).isEqualTo("poison");
        assertThat(p.onRequestHeader(req("poison"))).isInstanceOf(Decision.Reject.class);
        assertThat(p.onRequestHeader(req("quote"))).isEqualTo(Decision.PROCEED);
    }

    @Test
    void shouldNamePoisonAdmittedDuringAnEpisodeWhenItEndsAfterTheFallingEdge() {
        // a dip without poison opened the episode; the poison came in during it, and throughput came back
        // while it ran: it is in S2, so the analysis does not wait for it
        DefaultPoisonMessagePoint p = point(config());
        normal(p, "quote", 50);
        p.onRisingEdge(clock.nanoTime(), Evidence.NONE);
        IncomingRequest poison = req("poison");
        p.onRequestHeader(poison);
        normal(p, "quote", 5);
        clock.advance(Duration.ofSeconds(1));
        p.onFallingEdge(clock.nanoTime(), Evidence.NONE);
        assertThat(p.episodeReports()).hasSize(1);
        assertThat(p.filtered()).isEmpty();

        clock.advance(Duration.ofSeconds(3));
        p.onDispatchEnd(poison.requestKey(), 4_000_000_000L, 40_000_000_000L);

        assertThat(p.filtered()).containsExactly("poison");
    }

    @Test
    void shouldNotNameARequestThatEndsAfterItsEpisodeWhenItCostsWhatItsOperationUsuallyCosts() {
        DefaultPoisonMessagePoint p = point(config());
        normal(p, "quote", 50);
        for (int i = 0; i < 20; i++) { // a heavy report, 20 of them outside episodes: its own baseline
            IncomingRequest r = req("report");
            p.onRequestHeader(r);
            p.onDispatchEnd(r.requestKey(), 50_000_000L, 400_000_000L);
        }
        IncomingRequest report = req("report");
        IncomingRequest quote = req("quote");
        p.onRequestHeader(report);
        p.onRequestHeader(quote);
        p.onRisingEdge(clock.nanoTime(), Evidence.NONE);
        normal(p, "quote", 5);
        clock.advance(Duration.ofSeconds(1));
        p.onFallingEdge(clock.nanoTime(), Evidence.NONE);
        p.tick(clock.nanoTime() + 3_000 * MS);
        assertThat(p.episodeReports()).hasSize(1);

        p.onDispatchEnd(quote.requestKey(), 20_000, 8_000);
        p.onDispatchEnd(report.requestKey(), 50_000_000L, 400_000_000L);

        assertThat(p.filtered()).isEmpty();
        assertThat(p.episodeReports()).hasSize(1);
    }

    @Test
    void shouldNameNoSecondOffenderAfterTheEpisodeWhenItsAnalysisNamedOne() {
        DefaultPoisonMessagePoint p = point(config());
        normal(p, "quote", 50);
        IncomingRequest poison = req("poison");
        IncomingRequest other = req("export");
        p.onRequestHeader(poison);
        p.onRequestHeader(other);
        p.onRisingEdge(clock.nanoTime(), Evidence.NONE);
        clock.advance(Duration.ofSeconds(4));
        p.onDispatchEnd(poison.requestKey(), 4_000_000_000L, 40_000_000_000L);
        p.onFallingEdge(clock.nanoTime(), Evidence.NONE);
        p.tick(clock.nanoTime() + 10_000 * MS); // export still runs at the deadline
        assertThat(p.filtered()).containsExactly("poison");

        p.onDispatchEnd(other.requestKey(), 4_000_000_000L, 40_000_000_000L);

        assertThat(p.filtered()).containsExactly("poison");
    }

    @Test
    void shouldNotFilterAnythingWhenTheEpisodeHasNoCostlyRequest() {
        DefaultPoisonMessagePoint p = point(config());
        normal(p, "quote", 50);
        normal(p, "buy", 50);
        p.onRequestHeader(req("quote"));
        p.onRisingEdge(clock.nanoTime(), Evidence.NONE);
        normal(p, "quote", 20);
        normal(p, "buy", 20);
        clock.advance(Duration.ofSeconds(2));
        p.onFallingEdge(clock.nanoTime(), Evidence.NONE);
        p.tick(clock.nanoTime() + 10_000 * MS);
        assertThat(p.filtered()).isEmpty();
    }

    @Test
    void shouldIgnoreEpisodesShorterThanMinEpisode() {
        DefaultPoisonMessagePoint p = point(config());
        normal(p, "quote", 50);
        IncomingRequest poison = req("poison");
        p.onRequestHeader(poison);
        p.onRisingEdge(clock.nanoTime(), Evidence.NONE);
        p.onDispatchEnd(poison.requestKey(), 4_000_000_000L, 40_000_000_000L);
        clock.advance(Duration.ofMillis(900));
        p.onFallingEdge(clock.nanoTime(), Evidence.NONE);
        clock.advance(Duration.ofMillis(1100));
        p.tick(clock.nanoTime());
        assertThat(p.episodeReports()).isEmpty();
        assertThat(p.filtered()).isEmpty();
        assertThat(p.episodes()).isZero();
    }

    @Test
    void shouldJoinFlappingEdgesIntoOneEpisodeWhenTheyComeBackWithinMinEpisode() {
        DefaultPoisonMessagePoint p = point(config());
        normal(p, "quote", 50);
        IncomingRequest poison = req("poison");
        p.onRequestHeader(poison);
        p.onRisingEdge(clock.nanoTime(), Evidence.NONE);
        clock.advance(Duration.ofMillis(100));
        p.onFallingEdge(clock.nanoTime(), Evidence.NONE);   // flap
        clock.advance(Duration.ofMillis(400));
        p.tick(clock.nanoTime());
        p.onRisingEdge(clock.nanoTime(), Evidence.NONE);    // the same problem again
        normal(p, "quote", 5);
        clock.advance(Duration.ofMillis(3000));
        p.onDispatchEnd(poison.requestKey(), 4_000_000_000L, 40_000_000_000L);
        p.onFallingEdge(clock.nanoTime(), Evidence.NONE);
        assertThat(p.episodeReports()).hasSize(1);
        assertThat(p.episodeReports().get(0).inFlightAtRise()).contains("poison");
        assertThat(p.filtered()).containsExactly("poison");
    }

    @Test
    void shouldNeverFilterProtectedOperations() {
        DefaultPoisonMessagePoint p = point(PoisonConfig.custom().naming(naming(10))
                .addNeverFilter(OperationPattern.of("report")).build());
        normal(p, "quote", 50);
        IncomingRequest report = req("report");
        p.onRequestHeader(report);
        p.onRisingEdge(clock.nanoTime(), Evidence.NONE);
        p.onDispatchEnd(report.requestKey(), 4_000_000_000L, 40_000_000_000L);
        clock.advance(Duration.ofSeconds(2));
        p.onFallingEdge(clock.nanoTime(), Evidence.NONE);
        assertThat(p.episodeReports()).hasSize(1);
        assertThat(p.filtered()).isEmpty();
        assertThatThrownBy(() -> p.filter("report", 0)).hasMessageContaining("neverFilter");
    }

    @Test
    void shouldPutFilteredSignatureOnProbationAndReadmitItWhenHealthy() {
        DefaultPoisonMessagePoint p = point(config());
        normal(p, "quote", 50);
        p.filter("poison", clock.nanoTime());
        clock.advance(Duration.ofSeconds(9));
        assertThat(p.onRequestHeader(req("poison"))).isInstanceOf(Decision.Reject.class);
        clock.advance(Duration.ofSeconds(1));
        IncomingRequest probe = req("poison");
        assertThat(p.onRequestHeader(probe)).isEqualTo(Decision.PROCEED);
        assertThat(p.onRequestHeader(req("poison"))).isInstanceOf(Decision.Reject.class);
        p.onDispatchEnd(probe.requestKey(), 20_000, 8_000);
        for (int i = 0; i < 2; i++) {
            clock.advance(Duration.ofSeconds(1));
            IncomingRequest next = req("poison");
            assertThat(p.onRequestHeader(next)).isEqualTo(Decision.PROCEED);
            p.onDispatchEnd(next.requestKey(), 20_000, 8_000);
        }
        assertThat(p.filtered()).isEmpty();
        assertThat(p.onRequestHeader(req("poison"))).isEqualTo(Decision.PROCEED);
    }

    @Test
    void shouldFilterAgainWhenAProbeIsCostly() {
        DefaultPoisonMessagePoint p = point(config());
        normal(p, "quote", 50);
        p.filter("poison", clock.nanoTime());
        clock.advance(Duration.ofSeconds(10));
        IncomingRequest probe = req("poison");
        assertThat(p.onRequestHeader(probe)).isEqualTo(Decision.PROCEED);
        p.onDispatchEnd(probe.requestKey(), 4_000_000_000L, 40_000_000_000L);
        clock.advance(Duration.ofSeconds(15));
        assertThat(p.onRequestHeader(req("poison"))).isInstanceOf(Decision.Reject.class);
        assertThat(p.filtered()).containsExactly("poison");
    }

    @Test
    void shouldTellArgumentsApartWhenASignatureRuleMatches() {
        byte[] sell = "....SELL....".getBytes(StandardCharsets.US_ASCII);
        byte[] buy = "....BUY.....".getBytes(StandardCharsets.US_ASCII);
        DefaultPoisonMessagePoint p = point(PoisonConfig.custom()
                .addSignature(new ArgumentSignature("sell", OperationPattern.of("order*"), 0, 12,
                        java.util.Optional.of("text:SELL")))
                .addSignature(new ArgumentSignature("head", OperationPattern.of("raw"), 0, 2,
                        java.util.Optional.empty())).build());
        assertThat(p.signatureOf(req("order", sell))).isEqualTo("order#sell");
        assertThat(p.signatureOf(req("order", buy))).isEqualTo("order");
        assertThat(p.signatureOf(req("raw", new byte[]{0x0a, (byte) 0xff, 3})))
                .isEqualTo("raw#head=0aff");
        assertThat(p.argumentBytesWanted("orderX")).isEqualTo(12);
        assertThat(p.argumentBytesWanted("quote")).isZero();
        p.filter("order#sell", clock.nanoTime());
        assertThat(p.onRequestHeader(req("order", sell))).isInstanceOf(Decision.Reject.class);
        assertThat(p.onRequestHeader(req("order", buy))).isEqualTo(Decision.PROCEED);
    }

    @Test
    void shouldAdvertiseOverloadDuringAndShortlyAfterAnEpisode() {
        DefaultPoisonMessagePoint p = point(PoisonConfig.custom()
                .advertiseOverload(Duration.ofSeconds(5)).build());
        assertThat(p.advertisesOverload(clock.nanoTime())).isFalse();
        p.onRisingEdge(clock.nanoTime(), Evidence.NONE);
        clock.advance(Duration.ofMillis(900));
        assertThat(p.advertisesOverload(clock.nanoTime())).as("not before minEpisode").isFalse();
        clock.advance(Duration.ofSeconds(60));
        assertThat(p.advertisesOverload(clock.nanoTime())).isTrue();
        p.onFallingEdge(clock.nanoTime(), Evidence.NONE);
        clock.advance(Duration.ofSeconds(4));
        assertThat(p.advertisesOverload(clock.nanoTime())).isTrue();
        clock.advance(Duration.ofSeconds(1));
        assertThat(p.advertisesOverload(clock.nanoTime())).isFalse();
    }

    @Test
    void shouldNotAdvertiseABlipShorterThanMinEpisode() {
        DefaultPoisonMessagePoint p = point(PoisonConfig.custom()
                .advertiseOverload(Duration.ofSeconds(5)).build());
        p.onRisingEdge(clock.nanoTime(), Evidence.NONE);
        clock.advance(Duration.ofMillis(300));
        p.onFallingEdge(clock.nanoTime(), Evidence.NONE);
        assertThat(p.advertisesOverload(clock.nanoTime())).isFalse();
    }

    @Test
    void shouldCountDecisionsWhenRequestsAreRefused() {
        DefaultPoisonMessagePoint p = point(config());
        p.filter("poison", clock.nanoTime());
        p.onRequestHeader(req("poison"));
        p.onRequestHeader(req("quote"));
        assertThat(recorder.count(org.irmi.isolation.PointKind.POISON_MESSAGE,
                Decision.Action.REJECT)).isEqualTo(1);
        assertThat(recorder.count(org.irmi.isolation.PointKind.POISON_MESSAGE,
                Decision.Action.PROCEED)).isEqualTo(1);
        assertThat(module.triggers).hasSize(1);
        assertThat(module.triggers.get(0).evidence().get("timesFiltered")).isEqualTo(1.0);
    }
}
