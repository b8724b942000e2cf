package org.irmi.isolation.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.irmi.isolation.AdaptationModule;
import org.irmi.isolation.Decision;
import org.irmi.isolation.Evidence;
import org.irmi.isolation.LocalLoad;
import org.irmi.isolation.OutgoingCall;
import org.irmi.isolation.PointKind;
import org.irmi.isolation.RemoteLoad;
import org.irmi.isolation.Trigger;
import org.irmi.monitors.ManualClock;
import org.irmi.sla.CausalPair;
import org.irmi.sla.MonitorsConfig;
import org.irmi.sla.OperationPattern;
import org.irmi.sla.RemoteLoadThresholds;
import org.irmi.sla.SlowClientConfig;
import org.irmi.sla.TargetSelector;
import org.irmi.sla.WindowConfig;
import org.junit.jupiter.api.Test;

class DefaultSlowClientPointTest {
    private final ManualClock clock = new ManualClock();
    private final AtomicReference<LocalLoad> local = new AtomicReference<>(
            new LocalLoad(0.2, 0.3, 0.1));
    private final TestModules.Recording module = TestModules.Recording.shortCircuiting();
    private final DecisionRecorder recorder = new DecisionRecorder(clock::wallMillis);
    private final SlowClientConfig config = SlowClientConfig.custom()
            .queueGrowthPerSecond(5).maxQueueLength(50).queueLow(5)
            .heapPressurePercent(80).minHold(Duration.ZERO).build();
    private final DefaultSlowClientPoint point = new DefaultSlowClientPoint(config,
            monitors(Duration.ofSeconds(5), Duration.ofSeconds(10)), module, recorder, local::get, clock);

    /** The causal pair {@code events} (publish to deliver) with these rate and report windows. */
    private static MonitorsConfig monitors(Duration rateWindow, Duration reportMaxAge) {
        return MonitorsConfig.custom().addCausalPair(CausalPair.named("events", "publish", "deliver"))
                .requestRates(WindowConfig.of(rateWindow, 10)).remoteResources(WindowConfig.of(reportMaxAge, 10))
                .build();
    }
    private static final OutgoingCall DELIVER = OutgoingCall.of("secondary", 2809, "Sink", "deliver",
            false);

    /** One second: {@code in} incoming publishes, {@code out} outgoing delivers, then a tick. */
    private void second(int in, int out) {
        for (int i = 0; i < in; i++) {
            point.onIncoming("publish");
        }
        for (int i = 0; i < out; i++) {
            point.beforeMarshalling(DELIVER);
        }
        clock.advance(Duration.ofSeconds(1));
        point.tick(clock.nanoTime());
    }

    @Test
    void shouldProceedWhenInAndOutKeepPace() {
        point.tick(clock.nanoTime());
        for (int i = 0; i < 5; i++) {
            second(100, 100);
        }
        local.set(new LocalLoad(0.2, 0.95, 0.1));
        second(100, 100);
        assertThat(point.isTriggered("events")).isFalse();
        assertThat(point.beforeMarshalling(DELIVER)).isEqualTo(Decision.PROCEED);
        assertThat(module.triggers).isEmpty();
    }

    @Test
    void shouldAskTheModuleWhenQueueBuildsUnderHeapPressure() {
        point.tick(clock.nanoTime());
        second(100, 100);
        local.set(new LocalLoad(0.2, 0.9, 0.1));
        second(100, 20);
        assertThat(point.isTriggered("events")).isTrue();
        assertThat(point.evidence("events").get("queueEstimate")).isEqualTo(80.0);
        Decision d = point.beforeMarshalling(DELIVER);
        assertThat(d).isInstanceOf(Decision.ShortCircuit.class);
        Trigger t = module.triggers.get(0);
        assertThat(t.point()).isEqualTo(PointKind.SLOW_CLIENT);
        assertThat(t.evidence().get("heapPressure")).isEqualTo(0.9);
        assertThat(recorder.count(PointKind.SLOW_CLIENT, Decision.Action.SHORT_CIRCUIT))
                .isEqualTo(1);
    }

    @Test
    void shouldCountEliminatedCallsAsOutSoTheQueueDrains() {
        point.tick(clock.nanoTime());
        local.set(new LocalLoad(0.2, 0.9, 0.1));
        second(100, 0);
        assertThat(point.isTriggered("events")).isTrue();
        second(0, 100); // the worker drains its queue: every call is short-circuited
        assertThat(point.evidence("events").get("queueEstimate")).isZero();
        assertThat(point.isTriggered("events")).isFalse();
    }

    @Test
    void shouldNotGuardOtherOperationsWhenOnlyAPairIsTriggered() {
        point.tick(clock.nanoTime());
        local.set(new LocalLoad(0.2, 0.9, 0.1));
        second(100, 0);
        OutgoingCall other = OutgoingCall.of("secondary", 2809, "Sink", "status", false);
        assertThat(point.beforeMarshalling(other)).isEqualTo(Decision.PROCEED);
    }

    @Test
    void shouldReactToPeerOverloadBeforeAnyQueueGrows() {
        point.tick(clock.nanoTime());
        point.onReply(DELIVER, 1_000_000, new RemoteLoad(0.1, 0.1, 0, 0, true, clock.nanoTime()));
        point.tick(clock.nanoTime());
        assertThat(point.isHostTriggered("secondary")).isTrue();
        OutgoingCall other = OutgoingCall.of("secondary", 2809, "Sink", "status", false);
        assertThat(point.beforeMarshalling(other)).isInstanceOf(Decision.ShortCircuit.class);
        assertThat(module.triggers.get(0).evidence().get("remoteOverloaded")).isEqualTo(1.0);
        // the report goes stale: calls flow again
        clock.advance(Duration.ofSeconds(11));
        point.tick(clock.nanoTime());
        assertThat(point.beforeMarshalling(other)).isEqualTo(Decision.PROCEED);
    }

    @Test
    void shouldUseTheApplicationsQueueGaugeWhenRegistered() {
        point.registerQueueGauge("events", () -> 70);
        local.set(new LocalLoad(0.2, 0.9, 0.1));
        point.tick(clock.nanoTime());
        second(10, 10);
        assertThat(point.isTriggered("events")).isTrue();
        assertThat(point.evidence("events").get("applicationQueue")).isEqualTo(70.0);
    }

    @Test
    void shouldConsultAnEveryCallModuleWithoutEvidenceWhenNotTriggered() {
        AtomicReference<Evidence> seen = new AtomicReference<>();
        AdaptationModule limiter = new AdaptationModule() {
            @Override
            public String name() {
                return "limiter";
            }

            @Override
            public Decision decide(Trigger trigger) {
                seen.set(trigger.evidence());
                return Decision.proceed();
            }

            @Override
            public boolean consultedOnEveryCall() {
                return true;
            }
        };
        DefaultSlowClientPoint p = new DefaultSlowClientPoint(config,
                monitors(Duration.ofSeconds(5), Duration.ofSeconds(10)), limiter, recorder, local::get,
                clock);
        assertThat(p.beforeMarshalling(DELIVER)).isEqualTo(Decision.PROCEED);
        assertThat(seen.get()).isSameAs(Evidence.NONE);
        assertThat(recorder.count(PointKind.SLOW_CLIENT, Decision.Action.PROCEED)).isEqualTo(1);
    }

    @Test
    void shouldLeaveUnguardedTargetsAloneWhenTriggered() {
        SlowClientConfig guarded = SlowClientConfig.custom()
                .targets(java.util.List.of(new TargetSelector(OperationPattern.of("Other"),
                        java.util.List.of(OperationPattern.ANY))))
                .heapPressurePercent(80).queueGrowthPerSecond(5).build();
        DefaultSlowClientPoint p = new DefaultSlowClientPoint(guarded,
                monitors(Duration.ofSeconds(10), Duration.ofSeconds(10)), module, recorder,
                () -> new LocalLoad(0.2, 0.9, 0.1), clock);
        p.tick(clock.nanoTime());
        for (int i = 0; i < 100; i++) {
            p.onIncoming("publish");
        }
        clock.advance(Duration.ofSeconds(1));
        p.tick(clock.nanoTime());
        assertThat(p.isTriggered("events")).isTrue();
        assertThat(p.beforeMarshalling(DELIVER)).isEqualTo(Decision.PROCEED);
    }

    @Test
    void shouldTriggerOnASlowRoundTripAndForgetItWhenStale() {
        SlowClientConfig rtt = SlowClientConfig.custom().queueGrowthPerSecond(5)
                .remoteLoad(new RemoteLoadThresholds(90, 85, 1000, 10, Duration.ofMillis(20)))
                .minHold(Duration.ZERO).build();
        DefaultSlowClientPoint p = new DefaultSlowClientPoint(rtt,
                monitors(Duration.ofSeconds(10), Duration.ofSeconds(1)), module, recorder, local::get,
                clock);
        p.tick(clock.nanoTime());
        for (int i = 0; i < 100; i++) {
            p.onIncoming("publish");
        }
        for (int i = 0; i < 10; i++) {
            p.beforeMarshalling(DELIVER);
            p.onReply(DELIVER, 50_000_000L, null);
        }
        clock.advance(Duration.ofMillis(500));
        p.tick(clock.nanoTime());
        assertThat(p.isTriggered("events")).isTrue();
        assertThat(p.evidence("events").get("remoteRttNanos")).isEqualTo(50_000_000.0);
        clock.advance(Duration.ofSeconds(2));
        p.tick(clock.nanoTime());
        assertThat(p.evidence("events").values()).doesNotContainKey("remoteRttNanos");
    }
}
