package org.irmi.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.irmi.isolation.Decision;
import org.irmi.isolation.DecisionEvent;
import org.irmi.isolation.IsolationRuntime;
import org.irmi.isolation.PointKind;
import org.irmi.isolation.internal.DefaultSlowClientPoint;
import org.irmi.orb.isolation.OrbIsolation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

/**
 * Each adaptation module the other end-to-end tests do not cover (reject: poison; reroute: slow
 * client), enforced by the slow-client point of a real I-RMI primary against a secondary that
 * becomes slow. The primary's ORB is started with {@code irmi.sla} = {@code sla/modules-<module>.yaml},
 * so its own glue builds the point and finds the module by name; events reach the primary by
 * {@code publish} (the "in" side of its causal pair) and its workers deliver 64 KB events, then
 * every delivery takes 50 ms.
 */
class ModulesEndToEndTest {
    private static final String PAIR = "publish->*.deliver";
    private final Resources resources = new Resources();

    @AfterEach
    void tearDown() throws Exception {
        resources.close();
    }

    private ORB track(ORB o) {
        return resources.track(o);
    }

    record Outcome(IsolationRuntime runtime, TradeImpl secondary, long failures, long maxQueue, long delivered,
                   long returned, long endNanos) {
        long decisions(Decision.Action a) {
            return runtime.decisions(PointKind.SLOW_CLIENT, a);
        }
    }

    /**
     * 1.5 s steady, then 3 s with a slow secondary; {@code workers} threads drain the queue.
     *
     * @param setUp what the application does with the ORB's glue before the load starts
     */
    private Outcome run(String module, int workers, Consumer<OrbIsolation> setUp) throws Exception {
        TradeImpl secondary = new TradeImpl("secondary");
        String ior = Nodes.export(track(Nodes.irmi()), secondary);
        ORB primaryOrb = track(Nodes.irmi(Nodes.sla("modules-" + module + ".yaml")));
        OrbIsolation isolation = Nodes.isolation(primaryOrb);
        setUp.accept(isolation);
        IsolationRuntime rt = isolation.runtime();
        PrimaryImpl primary = new PrimaryImpl();
        String primaryIor = Nodes.export(primaryOrb, primary);
        AtomicBoolean running = new AtomicBoolean(true);
        resources.onClose(() -> running.set(false));
        primary.startWorkers(Nodes.lookup(primaryOrb, ior), running, workers);
        PrimaryImpl.startSource((Primary) javax.rmi.PortableRemoteObject.narrow(
                track(Nodes.irmi()).string_to_object(primaryIor), Primary.class), running);
        Thread trace = new Thread(() -> {
            while (running.get()) {
                System.out.println(module + " q=" + primary.queue.size() + " "
                        + ((DefaultSlowClientPoint) rt.slowClient().get()).evidence(PAIR)
                        + " triggered=" + rt.slowClient().get().isTriggered(PAIR));
                java.util.concurrent.locks.LockSupport.parkNanos(250_000_000L);
            }
        }, "trace");
        trace.setDaemon(true);
        trace.start();
        Thread.sleep(1_500);
        primary.maxQueue.set(0);
        secondary.slowNanos = 50_000_000L;
        Thread.sleep(3_000);
        running.set(false);
        long end = System.nanoTime();
        Thread.sleep(200); // the calls in flight return (a worker polls its queue every 100 ms)
        Outcome o = new Outcome(rt, secondary, primary.failures.get(), primary.maxQueue.get(),
                secondary.delivered.get(), primary.returned.get(), end);
        System.out.println(module + ": failures=" + o.failures() + " maxQueue=" + o.maxQueue()
                + " delivered=" + o.delivered() + " decisions=" + decisionCounts(rt));
        return o;
    }

    private static Map<Decision.Action, Long> decisionCounts(IsolationRuntime rt) {
        Map<Decision.Action, Long> m = new java.util.EnumMap<>(Decision.Action.class);
        for (Decision.Action a : Decision.Action.values()) {
            long n = rt.decisions(PointKind.SLOW_CLIENT, a);
            if (n > 0) {
                m.put(a, n);
            }
        }
        return m;
    }

    private static final Consumer<OrbIsolation> NOTHING = iso -> { };

    @Test
    void shouldShortCircuitCallsToASlowSecondaryWithoutTheCallerNoticing() throws Exception {
        Outcome o = run("short-circuit", 1, NOTHING);
        long eliminated = o.decisions(Decision.Action.SHORT_CIRCUIT);
        assertThat(eliminated).isPositive();
        assertThat(o.failures()).as("the worker never sees an exception").isZero();
        // every call that returned to the worker either reached the secondary or was eliminated:
        // were eliminated calls sent anyway, the secondary would count them too
        // (a call that reached the secondary may not have returned yet when the counts are read: one worker)
        assertThat(o.returned()).as("calls returned to the worker = delivered %d + eliminated %d", o.delivered(), eliminated)
                .isBetween(o.delivered() + eliminated - 1, o.delivered() + eliminated);
    }

    @Test
    void shouldShrinkTheArgumentsWithTheApplicationsReducerWhenDegrading() throws Exception {
        Outcome o = run("degrade", 1,
                iso -> iso.registerReducer("thumbnail", (op, args) -> new Object[]{new byte[1024]}));
        long degraded = o.decisions(Decision.Action.DEGRADE);
        assertThat(degraded).isPositive();
        // every degraded call arrives reduced (one may still be in flight when the run stops)
        assertThat(o.secondary().smallEvents.get()).as("deliveries that arrived reduced")
                .isPositive().isBetween(degraded - 1, degraded);
        assertThat(o.failures()).isZero();
    }

    @Test
    void shouldPaceFlaggedCallsWhenThrottling() throws Exception {
        java.util.concurrent.atomic.AtomicLong firstThrottle = new java.util.concurrent.atomic.AtomicLong();
        Outcome o = run("throttle", 1, iso -> iso.runtime().addListener((DecisionEvent e) -> {
            if (e.decision().action() == Decision.Action.THROTTLE) {
                firstThrottle.compareAndSet(0, System.nanoTime());
            }
        }));
        assertThat(o.decisions(Decision.Action.THROTTLE)).isPositive();
        assertThat(o.failures()).isZero();
        // sla/modules-throttle.yaml: 10 calls/s, burst 2. One worker against a 50 ms secondary could
        // make 20/s; from 0.5 s after the first throttle decision, deliveries keep to the rate.
        long from = firstThrottle.get() + 500_000_000L;
        double seconds = (o.endNanos() - from) / 1e9;
        assertThat(seconds).as("time throttled before the run ended").isGreaterThan(1.0);
        long paced = o.secondary().deliveredAt.stream().filter(t -> t >= from && t <= o.endNanos()).count();
        assertThat(paced / seconds).as("deliveries per second while throttled (%d in %.2f s)", paced, seconds)
                .isLessThanOrEqualTo(10.0 + 2 / seconds + 1 / seconds);
    }

    @Test
    void shouldParkFlaggedCallsAndResubmitThemWhenDeferring() throws Exception {
        Outcome o = run("defer", 2, NOTHING);
        assertThat(o.decisions(Decision.Action.DEFER)).isPositive();
        assertThat(o.failures()).as("every parked call was resubmitted, none timed out").isZero();
        // and none was dropped: every call that returned to a worker reached the secondary
        // (a call that reached the secondary may not have returned yet when the counts are read: two workers)
        assertThat(o.returned()).as("calls returned to the workers, %d delivered", o.delivered())
                .isBetween(o.delivered() - 2, o.delivered());
    }

    @Test
    void shouldShrinkTheConcurrencyLimitWhenRoundTripsExceedTheTimeout() throws Exception {
        // the module inside the ORB's runtime is not reachable; its rejections name the limit in force
        Pattern limitInReason = Pattern.compile("concurrency limit (\\d+) reached");
        List<Integer> limits = new CopyOnWriteArrayList<>();
        Outcome o = run("adaptive-limit", 4, iso -> iso.runtime().addListener((DecisionEvent e) -> {
            if (e.decision() instanceof Decision.Reject r) {
                Matcher m = limitInReason.matcher(r.reason());
                if (m.find()) {
                    limits.add(Integer.parseInt(m.group(1)));
                }
            }
        }));
        assertThat(o.decisions(Decision.Action.REJECT)).as("calls over the limit are refused")
                .isPositive();
        assertThat(limits).as("limits named by the rejections").isNotEmpty();
        assertThat(limits.stream().mapToInt(Integer::intValue).min().getAsInt())
                .as("the limit backs off from 4").isLessThan(4);
        assertThat(o.failures()).isPositive().isLessThanOrEqualTo(o.decisions(Decision.Action.REJECT));
    }
}
