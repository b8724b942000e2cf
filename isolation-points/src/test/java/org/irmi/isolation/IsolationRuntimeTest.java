package org.irmi.isolation;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.irmi.monitors.EdgeEvent;
import org.irmi.monitors.EdgeSample;
import org.irmi.monitors.ManualClock;
import org.irmi.sla.CrosstalkConfig;
import org.irmi.sla.PoisonConfig;
import org.junit.jupiter.api.Test;
import org.irmi.sla.SystemExceptionKind;

class IsolationRuntimeTest {
    private final ManualClock clock = new ManualClock();
    private final List<DecisionEvent> events = new ArrayList<>();
    private final AdaptationModule reject = new AdaptationModule() {
        @Override
        public String name() {
            return "reject";
        }

        @Override
        public Decision decide(Trigger t) {
            return Decision.reject(SystemExceptionKind.NO_RESOURCES, MinorCodes.POISON_FILTERED,
                    "poison");
        }
    };

    private IsolationRuntime runtime() {
        return IsolationRuntime.builder().clock(clock).poison(PoisonConfig.ofDefaults(), reject)
                .crosstalk(CrosstalkConfig.ofDefaults()).listener(events::add).build();
    }

    private static IncomingRequest req(int id, String op) {
        return new IncomingRequest(1, id, "127.0.0.1:9", "key", op, 64, true, null, null);
    }

    @Test
    void shouldRouteMonitorEdgesToThePoisonPoint() {
        IsolationRuntime rt = runtime();
        PoisonMessagePoint p = rt.poison().orElseThrow();
        IncomingRequest poison = req(1, "poison");
        p.onRequestHeader(poison);
        EdgeSample base = new EdgeSample(0, 100, 0.5, 0.01, 1e6);
        EdgeSample bad = new EdgeSample(1, 20, 1.8, 0.4, 5e8);
        rt.onEdge(new EdgeEvent.RisingEdge(clock.nanoTime(), bad, base, 80,
                Map.of(org.irmi.sla.PoisonConfig.Resource.ALLOCATION, 49_900.0)));
        assertThat(rt.inPoisonEpisode()).isTrue();
        clock.advance(java.time.Duration.ofSeconds(1)); // the episode lasts minEpisode: advertised
        assertThat(rt.advertisesOverload(clock.nanoTime())).isTrue();
        for (int i = 2; i < 30; i++) {
            IncomingRequest r = req(i, "quote");
            p.onRequestHeader(r);
            p.onDispatchEnd(r.requestKey(), 10_000, 1_000);
        }
        p.onDispatchEnd(poison.requestKey(), 3_000_000_000L, 30_000_000_000L);
        clock.advance(java.time.Duration.ofSeconds(3));
        rt.onEdge(new EdgeEvent.FallingEdge(clock.nanoTime(), base, base, 4_000_000_000L,
                EdgeEvent.Recovery.RECOVERED));
        assertThat(p.filtered()).containsExactly("poison");
        assertThat(p.onRequestHeader(req(99, "poison"))).isInstanceOf(Decision.Reject.class);
        assertThat(events).hasSize(1);
        assertThat(events.get(0).toLogLine()).contains("point=poison_message", "action=reject",
                "exception=NO_RESOURCES", "minor=POISON_FILTERED", "evidence={timesFiltered=1");
    }

    @Test
    void shouldShowAnEpisodeAsWatchedAndNotNamedWhenItNamesNoSuspect() {
        IsolationRuntime rt = runtime();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        rt.bindTo(registry);
        PoisonMessagePoint p = rt.poison().orElseThrow();
        EdgeSample base = new EdgeSample(0, 100, 0.5, 0.01, 1e6);
        rt.onEdge(new EdgeEvent.RisingEdge(clock.nanoTime(), new EdgeSample(1, 60, 0.5, 0.03, 1e6), base, 40,
                Map.of(org.irmi.sla.PoisonConfig.Resource.GC, 200.0)));
        assertThat(registry.get("irmi.isolation.poison.watching").gauge().value()).isEqualTo(1.0);
        assertThat(p.watching()).isTrue();
        for (int i = 1; i < 30; i++) { // only cheap, common requests run during it
            IncomingRequest r = req(i, "quote");
            p.onRequestHeader(r);
            p.onDispatchEnd(r.requestKey(), 10_000, 1_000);
        }
        clock.advance(java.time.Duration.ofSeconds(2));
        rt.onEdge(new EdgeEvent.FallingEdge(clock.nanoTime(), base, base, 2_000_000_000L, EdgeEvent.Recovery.RECOVERED));

        assertThat(p.episodes()).isEqualTo(1);
        assertThat(p.watching()).isFalse();
        assertThat(registry.get("irmi.isolation.poison.watching").gauge().value()).isEqualTo(0.0);
        assertThat(registry.get("irmi.isolation.poison.episodes").functionCounter().count()).isEqualTo(1.0);
        assertThat(registry.get("irmi.isolation.poison.named").functionCounter().count()).isEqualTo(0.0);
    }

    @Test
    void shouldCountASuspectNamedWhenAnEpisodeFiltersOne() {
        IsolationRuntime rt = runtime();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        rt.bindTo(registry);
        PoisonMessagePoint p = rt.poison().orElseThrow();
        IncomingRequest poison = req(1, "poison");
        p.onRequestHeader(poison);
        EdgeSample base = new EdgeSample(0, 100, 0.5, 0.01, 1e6);
        rt.onEdge(new EdgeEvent.RisingEdge(clock.nanoTime(), new EdgeSample(1, 20, 1.8, 0.4, 5e8), base, 80,
                Map.of(org.irmi.sla.PoisonConfig.Resource.ALLOCATION, 49_900.0)));
        for (int i = 2; i < 30; i++) {
            IncomingRequest r = req(i, "quote");
            p.onRequestHeader(r);
            p.onDispatchEnd(r.requestKey(), 10_000, 1_000);
        }
        p.onDispatchEnd(poison.requestKey(), 3_000_000_000L, 30_000_000_000L);
        clock.advance(java.time.Duration.ofSeconds(3));
        rt.onEdge(new EdgeEvent.FallingEdge(clock.nanoTime(), base, base, 3_000_000_000L, EdgeEvent.Recovery.RECOVERED));

        assertThat(p.filtered()).containsExactly("poison");
        assertThat(registry.get("irmi.isolation.poison.named").functionCounter().count()).isEqualTo(1.0);
        assertThat(registry.get("irmi.isolation.poison.episodes").functionCounter().count()).isEqualTo(1.0);
        assertThat(registry.get("irmi.isolation.poison.watching").gauge().value()).isEqualTo(0.0);
    }

    @Test
    void shouldCountDecisionsInMicrometerByPointAndAction() {
        IsolationRuntime rt = runtime();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        rt.bindTo(registry);
        PoisonMessagePoint p = rt.poison().orElseThrow();
        p.filter("poison", clock.nanoTime());
        p.onRequestHeader(req(1, "poison"));
        p.onRequestHeader(req(2, "poison"));
        p.onRequestHeader(req(3, "quote"));
        assertThat(registry.get("irmi.isolation.decisions").tag("point", "poison_message")
                .tag("action", "reject").functionCounter().count()).isEqualTo(2.0);
        assertThat(registry.get("irmi.isolation.decisions").tag("point", "poison_message")
                .tag("action", "proceed").functionCounter().count()).isEqualTo(1.0);
        assertThat(registry.get("irmi.isolation.poison.filtered").gauge().value()).isEqualTo(1.0);
        assertThat(registry.get("irmi.isolation.decisions").meters()).hasSize(21);
    }

    @Test
    void shouldKeepCountingAcrossRuntimesWhenMetersFollowTheCurrentOne() {
        IsolationRuntime first = runtime();
        java.util.concurrent.atomic.AtomicReference<IsolationRuntime> current =
                new java.util.concurrent.atomic.AtomicReference<>(first);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        io.micrometer.core.instrument.binder.MeterBinder binder = IsolationRuntime.following(current::get);
        binder.bindTo(registry); // held to the end of the test: function counters are weak
        first.poison().orElseThrow().filter("poison", clock.nanoTime());
        first.poison().orElseThrow().onRequestHeader(req(1, "poison"));
        assertThat(rejects(registry)).isEqualTo(1.0);
        assertThat(registry.get("irmi.isolation.poison.filtered").gauge().value()).isEqualTo(1.0);

        IsolationRuntime second = runtime(); // an SLA reload
        current.set(second);
        assertThat(registry.get("irmi.isolation.poison.filtered").gauge().value()).isEqualTo(0.0);
        second.poison().orElseThrow().filter("other", clock.nanoTime());
        second.poison().orElseThrow().onRequestHeader(req(2, "other"));
        second.poison().orElseThrow().onRequestHeader(req(3, "other"));
        assertThat(rejects(registry)).isEqualTo(3.0);
        assertThat(registry.get("irmi.isolation.poison.filtered").gauge().value()).isEqualTo(1.0);
        assertThat(registry.get("irmi.isolation.slow_client.triggered_pairs").gauge().value()).isEqualTo(0.0);
        assertThat(binder).isNotNull();
    }

    @Test
    void shouldKeepReadingAfterAGarbageCollectionWhileTheBinderIsHeld() {
        IsolationRuntime rt = runtime();
        java.util.concurrent.atomic.AtomicReference<IsolationRuntime> current =
                new java.util.concurrent.atomic.AtomicReference<>(rt);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        io.micrometer.core.instrument.binder.MeterBinder binder = IsolationRuntime.following(current::get);
        binder.bindTo(registry);
        rt.poison().orElseThrow().filter("poison", clock.nanoTime());
        rt.poison().orElseThrow().onRequestHeader(req(1, "poison"));
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        assertThat(rejects(registry)).isEqualTo(1.0);
        assertThat(registry.get("irmi.isolation.poison.filtered").gauge().value()).isEqualTo(1.0);
        assertThat(binder).isNotNull();
    }

    private static double rejects(SimpleMeterRegistry registry) {
        return registry.get("irmi.isolation.decisions").tag("point", "poison_message").tag("action", "reject")
                .functionCounter().count();
    }

    @Test
    void shouldSampleTheEdgeDetectorOncePerSamplePeriodWhateverTheTickRate() {
        java.util.concurrent.atomic.AtomicInteger samples = new java.util.concurrent.atomic.AtomicInteger();
        IsolationRuntime rt = IsolationRuntime.builder().clock(clock).poison(PoisonConfig.ofDefaults(), reject)
                .edges(org.irmi.monitors.EdgeDetector.of(org.irmi.monitors.EdgeDetectorConfig.ofDefaults()), () -> {
                    samples.incrementAndGet();
                    return new EdgeSample(clock.nanoTime(), 100, 0.5, 0.01, 1e6);
                }, 500_000_000L).build();
        for (int i = 0; i < 40; i++) { // 2 s of 50 ms ticks
            rt.tick(clock.nanoTime());
            clock.advance(java.time.Duration.ofMillis(50));
        }
        assertThat(samples).hasValue(4);
    }

    @Test
    void shouldBuildTheCrosstalkPointOnlyWhenConfigured() {
        ConnectionTuner none = new ConnectionTuner() {
            @Override
            public void setReadBudget(long connectionId, int bytesPerTurn) {
            }

            @Override
            public void setReceiveBufferSize(long connectionId, int bytes) {
            }
        };
        assertThat(runtime().newCrosstalkPoint(none)).isPresent();
        assertThat(IsolationRuntime.builder().build().newCrosstalkPoint(none)).isEmpty();
        assertThat(IsolationRuntime.builder().build().slowClient()).isEmpty();
    }

    @Test
    void shouldMakeEveryHookDecisionEnforceableOnTheReaderThread() {
        Decision sc = new Decision.ShortCircuit(null);
        Decision.Reject r = (Decision.Reject) sc.enforceableOnReaderThread();
        assertThat(r.minor()).isEqualTo(MinorCodes.NOT_ENFORCEABLE_HERE);
        assertThat(Decision.PROCEED.enforceableOnReaderThread()).isSameAs(Decision.PROCEED);
        assertThat(MinorCodes.isIrmi(MinorCodes.POISON_FILTERED)).isTrue();
        assertThat(MinorCodes.POISON_FILTERED).isEqualTo(0x49524001);
    }
}
