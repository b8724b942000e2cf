package org.irmi.adaptation.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.irmi.adaptation.ReplicaResolver;
import org.irmi.adaptation.Triggers;
import org.irmi.isolation.CallListener;
import org.irmi.isolation.Decision;
import org.irmi.isolation.MinorCodes;
import org.irmi.sla.SystemExceptionKind;
import org.irmi.monitors.ManualClock;
import org.irmi.sla.DeferConfig.WhenFull;
import org.junit.jupiter.api.Test;

class BuiltInModulesTest {
    private static final long MS = 1_000_000L;
    private final ManualClock clock = new ManualClock();

    @Test
    void shouldRejectWithThePointsOwnMinorCodeByDefault() {
        RejectModule m = new RejectModule(SystemExceptionKind.TRANSIENT, null, "busy");
        assertThat(((Decision.Reject) m.decide(Triggers.poison(0))).minor())
                .isEqualTo(MinorCodes.POISON_FILTERED);
        Decision.Reject r = (Decision.Reject) m.decide(Triggers.slowClient(0));
        assertThat(r.minor()).isEqualTo(MinorCodes.SLOW_CLIENT_REJECTED);
        assertThat(r.reason()).isEqualTo("busy (slow_client: deliver)");
    }

    @Test
    void shouldRejectWithAConfiguredMinorCode() {
        RejectModule m = new RejectModule(SystemExceptionKind.NO_RESOURCES, 1230, "x");
        Decision.Reject r = (Decision.Reject) m.decide(Triggers.poison(0));
        assertThat(r.minor()).isEqualTo(1230);
        assertThat(r.kind()).isEqualTo(SystemExceptionKind.NO_RESOURCES);
    }

    @Test
    void shouldShortCircuitWithTheConfiguredResult() {
        ShortCircuitModule m = new ShortCircuitModule("0", true);
        assertThat(m.decide(Triggers.slowClient(0))).isEqualTo(new Decision.ShortCircuit("0"));
    }

    @Test
    void shouldDropOnewaysOrLetThemProceedAsConfigured() {
        assertThat(new ShortCircuitModule("0", true).decide(Triggers.slowClient(0, true, null)))
                .isEqualTo(new Decision.ShortCircuit(null));
        assertThat(new ShortCircuitModule("0", false).decide(Triggers.slowClient(0, true, null)))
                .isEqualTo(Decision.proceed());
    }

    @Test
    void shouldForwardRoundRobinToTheReplicasOfTheNamingService() {
        AtomicInteger lookups = new AtomicInteger();
        ReplicaResolver resolver = name -> {
            lookups.incrementAndGet();
            return List.of(new ReplicaResolver.Replica("a", "IOR:a"),
                    new ReplicaResolver.Replica("b", "IOR:b"));
        };
        RerouteModule m = new RerouteModule("irmi/sink", resolver, 1000 * MS, Runnable::run,
                Optional.empty(), clock.nanoTime());
        Decision.Forward f1 = (Decision.Forward) m.decide(Triggers.slowClient(clock.nanoTime()));
        Decision.Forward f2 = (Decision.Forward) m.decide(Triggers.slowClient(clock.nanoTime()));
        Decision.Forward f3 = (Decision.Forward) m.decide(Triggers.slowClient(clock.nanoTime()));
        assertThat(List.of(f1.replicaName(), f2.replicaName(), f3.replicaName()))
                .containsExactly("a", "b", "a");
        assertThat(f2.target()).isEqualTo("IOR:b");
        assertThat(lookups.get()).isEqualTo(1);
        clock.advanceMillis(1000);
        m.decide(Triggers.slowClient(clock.nanoTime()));
        assertThat(lookups.get()).isEqualTo(2);
    }

    @Test
    void shouldNeverLookUpOnTheDecidingThread() {
        List<Runnable> pending = new ArrayList<>();
        RerouteModule m = new RerouteModule("irmi/sink",
                name -> List.of(new ReplicaResolver.Replica("a", "IOR:a")), 1000 * MS, pending::add,
                Optional.empty(), 0);
        assertThat(pending).hasSize(1); // the first lookup starts at creation, in the background
        Decision.Reject r = (Decision.Reject) m.decide(Triggers.poison(0));
        assertThat(r.minor()).isEqualTo(MinorCodes.NO_REPLICA);
        assertThat(pending).hasSize(1);
        pending.get(0).run();
        assertThat(m.decide(Triggers.poison(0))).isInstanceOf(Decision.Forward.class);
    }

    @Test
    void shouldKeepTheLastReplicasWhenTheNamingServiceFails() {
        AtomicInteger calls = new AtomicInteger();
        RerouteModule m = new RerouteModule("irmi/sink", name -> {
            if (calls.incrementAndGet() > 1) {
                throw new IllegalStateException("naming service down");
            }
            return List.of(new ReplicaResolver.Replica("a", "IOR:a"));
        }, 10 * MS, Runnable::run, Optional.empty(), clock.nanoTime());
        m.decide(Triggers.slowClient(clock.nanoTime()));
        clock.advanceMillis(20);
        assertThat(m.decide(Triggers.slowClient(clock.nanoTime())))
                .isInstanceOf(Decision.Forward.class);
        assertThat(m.replicas()).hasSize(1);
    }

    @Test
    void shouldDegradeOnlyWhereArgumentsAreVisible() {
        DegradeModule m = new DegradeModule((op, args) -> new Object[]{"small"}, Optional.empty());
        Decision.Degrade d = (Decision.Degrade) m.decide(Triggers.slowClient(0));
        assertThat(d.reducer().reduce("deliver", new Object[]{"big"})).containsExactly("small");
        assertThat(m.decide(Triggers.slowClient(0, false, null))).isEqualTo(Decision.proceed());
        DegradeModule withFallback = new DegradeModule((op, args) -> args,
                Optional.of(new RejectModule(SystemExceptionKind.TRANSIENT, null, "r")));
        assertThat(withFallback.decide(Triggers.poison(0))).isInstanceOf(Decision.Reject.class);
    }

    @Test
    void shouldPaceClientsAndRejectOnTheServerWhenThrottling() {
        ThrottleModule m = new ThrottleModule(10, 2, clock::nanoTime);
        assertThat(m.decide(Triggers.slowClient(0))).isEqualTo(Decision.proceed());
        assertThat(m.decide(Triggers.slowClient(0))).isEqualTo(Decision.proceed());
        assertThat(m.decide(Triggers.slowClient(0))).isEqualTo(new Decision.Throttle(100 * MS));
        assertThat(m.decide(Triggers.slowClient(0))).isEqualTo(new Decision.Throttle(200 * MS));
        Decision.Reject tooLate = (Decision.Reject) m.decide(Triggers.slowClient(0));
        assertThat(tooLate.minor()).isEqualTo(MinorCodes.THROTTLED);
        ThrottleModule server = new ThrottleModule(10, 1, clock::nanoTime);
        assertThat(server.decide(Triggers.poison(0))).isEqualTo(Decision.proceed());
        assertThat(server.decide(Triggers.poison(0))).isInstanceOf(Decision.Reject.class);
        assertThat(server.decide(Triggers.poison(100 * MS))).isEqualTo(Decision.proceed());
    }

    @Test
    void shouldLimitCallsInFlightAndReleaseOnCompletion() {
        AdaptiveLimitModule m = new AdaptiveLimitModule(new AimdLimit(2, 1, 10, 0.5, 1, 1000 * MS));
        Decision.Proceed a = (Decision.Proceed) m.decide(Triggers.slowClient(0));
        Decision.Proceed b = (Decision.Proceed) m.decide(Triggers.slowClient(0));
        Decision.Reject c = (Decision.Reject) m.decide(Triggers.slowClient(0));
        assertThat(c.minor()).isEqualTo(MinorCodes.CONCURRENCY_LIMIT);
        a.listener().onSuccess(MS);   // in flight 1 of limit 2: not app-limited -> limit 3
        assertThat(m.limit()).isEqualTo(3);
        b.listener().onDropped();     // limit 3 * 0.5 -> 1
        assertThat(m.limit()).isEqualTo(1);
        assertThat(m.inFlight()).isZero();
    }

    @Test
    void shouldNotCountACancelledCallAsOverload() {
        AdaptiveLimitModule m = new AdaptiveLimitModule(new AimdLimit(4, 1, 10, 0.5, 1, 1000 * MS));
        CallListener l = ((Decision.Proceed) m.decide(Triggers.slowClient(0))).listener();
        l.onIgnore();
        l.onDropped(); // a second report of the same call is ignored
        assertThat(m.limit()).isEqualTo(4);
        assertThat(m.inFlight()).isZero();
    }

    @Test
    void shouldParkCallsAndReleaseThemWhenThePointStopsFlagging() {
        DeferModule m = new DeferModule(2, 100 * MS, 1, WhenFull.REJECT, true,
                clock::nanoTime);
        Decision.Defer d1 = (Decision.Defer) m.decide(Triggers.slowClient(0));
        Decision.Defer d2 = (Decision.Defer) m.decide(Triggers.slowClient(0));
        assertThat(d1.maxWaitNanos()).isEqualTo(300 * MS);
        Decision.Reject full = (Decision.Reject) m.decide(Triggers.slowClient(0));
        assertThat(full.minor()).isEqualTo(MinorCodes.DEFER_QUEUE_FULL);
        m.tick(100 * MS);  // flagged since start: one retry each
        assertThat(d1.release().toCompletableFuture()).isNotDone();
        m.tick(200 * MS);  // nothing flagged since the last tick: released
        assertThat(d1.release().toCompletableFuture().join()).isEqualTo(Decision.proceed());
        assertThat(d2.release().toCompletableFuture().join()).isEqualTo(Decision.proceed());
    }

    @Test
    void shouldRejectParkedCallsAfterMaxRetriesWhileStillFlagged() {
        DeferModule m = new DeferModule(10, 100 * MS, 1, WhenFull.REJECT, true,
                clock::nanoTime);
        Decision.Defer d = (Decision.Defer) m.decide(Triggers.slowClient(0));
        m.tick(100 * MS);
        m.decide(Triggers.slowClient(150 * MS)); // the point keeps flagging
        m.tick(200 * MS);
        Decision.Reject r = (Decision.Reject) d.release().toCompletableFuture().join();
        assertThat(r.minor()).isEqualTo(MinorCodes.DEFER_TIMEOUT);
    }

    @Test
    void shouldShortCircuitANewCallWhenFullAndConfiguredSo() {
        DeferModule m = new DeferModule(1, 100 * MS, 1, WhenFull.SHORT_CIRCUIT, true,
                clock::nanoTime);
        m.decide(Triggers.slowClient(0));
        assertThat(m.decide(Triggers.slowClient(0))).isEqualTo(new Decision.ShortCircuit(null));
    }
}
