package org.irmi.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
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
    /**
     * How long the workers may take to finish their last call: the longest a call may be held is
     * defer's {@code retryDelay * (maxRetries + 2)} = 100 ms * 52 (sla/modules-defer.yaml), plus
     * the call itself.
     */
    private static final long WORKERS_STOP_MILLIS = 10_000;
    /** Deliveries before the secondary is slowed: 1.5 s of the source's 200 events/s. */
    private static final long STEADY_EVENTS = 300;
    /** Events published while the secondary is slow: 3 s of the source's. */
    private static final long SLOW_EVENTS = 600;
    /** The most either phase may take on a loaded machine before the test fails. */
    private static final Duration PHASE_LIMIT = Duration.ofSeconds(60);
    private final Resources resources = new Resources();

    @AfterEach
    void tearDown() throws Exception {
        resources.close();
    }

    private ORB track(ORB o) {
        return resources.track(o);
    }

    record Outcome(IsolationRuntime runtime, TradeImpl secondary, long failures, long maxQueue, long delivered,
                   long returned, long slowedNanos, long endNanos) {
        long decisions(Decision.Action a) {
            return runtime.decisions(PointKind.SLOW_CLIENT, a);
        }
    }

    /**
     * {@link #STEADY_EVENTS} delivered steady, then {@link #SLOW_EVENTS} published with a slow
     * secondary (about 1.5 s and 3 s); {@code workers} threads drain the queue.
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
        await("steady deliveries").atMost(PHASE_LIMIT).until(() -> primary.returned.get() >= STEADY_EVENTS);
        primary.maxQueue.set(0);
        long publishedBefore = primary.published.get();
        secondary.slowNanos = 50_000_000L;
        long slowed = System.nanoTime();
        await("events published while the secondary is slow").atMost(PHASE_LIMIT)
                .until(() -> primary.published.get() - publishedBefore >= SLOW_EVENTS);
        running.set(false);
        long end = System.nanoTime();
        // every call in flight returns, a parked or paced one included, so the counts below are final
        assertThat(primary.awaitWorkers(WORKERS_STOP_MILLIS)).as("the workers stopped").isTrue();
        Outcome o = new Outcome(rt, secondary, primary.failures.get(), primary.maxQueue.get(),
                secondary.delivered.get(), primary.returned.get(), slowed, end);
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
        assertThat(o.returned()).as("calls returned to the worker = delivered %d + eliminated %d", o.delivered(), eliminated)
                .isEqualTo(o.delivered() + eliminated);
    }

    @Test
    void shouldShrinkTheArgumentsWithTheApplicationsReducerWhenDegrading() throws Exception {
        Outcome o = run("degrade", 1,
                iso -> iso.registerReducer("thumbnail", (op, args) -> new Object[]{new byte[1024]}));
        long degraded = o.decisions(Decision.Action.DEGRADE);
        assertThat(degraded).isPositive();
        // every degraded call arrives reduced
        assertThat(o.secondary().smallEvents.get()).as("deliveries that arrived reduced")
                .isPositive().isEqualTo(degraded);
        assertThat(o.failures()).isZero();
    }

    @Test
    void shouldPaceFlaggedCallsToTheConfiguredRateWhenThrottling() throws Exception {
        AtomicLong firstThrottle = new AtomicLong();
        Outcome o = run("throttle", 1, iso -> iso.runtime().addListener((DecisionEvent e) -> {
            if (e.decision().action() == Decision.Action.THROTTLE) {
                firstThrottle.compareAndSet(0, System.nanoTime());
            }
        }));
        assertThat(o.decisions(Decision.Action.THROTTLE)).as("calls made to wait for a token").isPositive();
        assertThat(o.failures()).as("paced, never refused").isZero();
        // sla/modules-throttle.yaml: rate 10/s, burst 2 (read from the file); one worker. Unthrottled,
        // that worker would deliver up to 20/s to the 50 ms secondary, so holding 10/s is the throttle's doing.
        org.irmi.sla.ThrottleConfig throttle = (org.irmi.sla.ThrottleConfig) actionOf("modules-throttle.yaml");
        double rate = throttle.ratePerSecond();
        int burst = throttle.burst();
        assertThat(rate).as("the test's arithmetic assumes a token per 100 ms, after a 50 ms call").isEqualTo(10);
        int workers = 1;
        // The bound comes from the token bucket, not from runs: in any span of L seconds it lets at
        // most burst + rate * L calls through, and a caller that always waits for the next token
        // (the worker always has a queued event and its call, 50 ms, ends before the next token is
        // due, 100 ms) gets at least rate * L - 1. A call is counted when it completes at the
        // secondary, a constant 50 ms after it went through, give or take the scheduling of each
        // call: at each end of the span one call per worker may fall in or out.
        long slack = burst + workers;
        // from the first throttle decision, but not before the secondary was slowed: a decision made in
        // the fast phase (a start-up transient) would count the fast phase's unpaced deliveries
        long from = Math.max(firstThrottle.get(), o.slowedNanos());
        double seconds = (o.endNanos() - from) / 1e9;
        assertThat(seconds).as("time throttled before the run ended").isGreaterThan(1.0);
        List<Long> paced = o.secondary().deliveredAt.stream().filter(t -> t >= from && t <= o.endNanos())
                .sorted().toList();
        assertThat((double) paced.size()).as("deliveries in the %.2f s throttled: %.1f/s against %.0f/s",
                        seconds, paced.size() / seconds, rate)
                .isBetween(rate * seconds - slack, rate * seconds + slack);
        // and evenly: no second of it ran faster (the burst can be spent once per span)
        int busiestSecond = 0;
        for (int i = 0, j = 0; i < paced.size(); i++) {
            while (j < paced.size() && paced.get(j) < paced.get(i) + 1_000_000_000L) {
                j++;
            }
            busiestSecond = Math.max(busiestSecond, j - i);
        }
        System.out.printf("throttle: %d deliveries in %.2f s throttled (%.1f/s), busiest second %d%n",
                paced.size(), seconds, paced.size() / seconds, busiestSecond);
        assertThat((long) busiestSecond).as("deliveries in the busiest second of %s", paced)
                .isLessThanOrEqualTo((long) rate + slack);
    }

    @Test
    void shouldParkFlaggedCallsAndDeliverThemLaterWhenDeferring() throws Exception {
        // event -> when its call was parked; the listener runs on the worker thread that made the call
        Map<Long, Long> parkedAt = new ConcurrentHashMap<>();
        Outcome o = run("defer", 2, iso -> iso.runtime().addListener((DecisionEvent e) -> {
            if (e.decision().action() == Decision.Action.DEFER) {
                parkedAt.put(PrimaryImpl.delivering(), System.nanoTime());
            }
        }));
        long deferred = o.decisions(Decision.Action.DEFER);
        assertThat(deferred).isPositive();
        assertThat((long) parkedAt.size()).as("parked calls, each followed by its event").isEqualTo(deferred);
        assertThat(o.failures()).as("no parked call timed out or was refused").isZero();
        // resubmitted: every parked event reached the secondary ...
        Map<Long, Long> deliveredAt = o.secondary().deliveredBySequence;
        assertThat(deliveredAt.keySet()).as("events delivered").containsAll(parkedAt.keySet());
        // ... later: a tick releases the parked calls only when the point flagged no call since the
        // tick before, and parking a call is itself such a flag, so a call stays parked at least
        // from the first tick after it to the next one, retryDelay (sla/modules-defer.yaml)
        long retryDelay = ((org.irmi.sla.DeferConfig) actionOf("modules-defer.yaml")).retryDelay().toNanos();
        long shortestPark = parkedAt.entrySet().stream()
                .mapToLong(p -> deliveredAt.get(p.getKey()) - p.getValue()).min().orElseThrow();
        System.out.printf("defer: %d parked calls delivered, %d to %d ms from parking to delivery%n",
                parkedAt.size(), shortestPark / 1_000_000, parkedAt.entrySet().stream()
                        .mapToLong(p -> deliveredAt.get(p.getKey()) - p.getValue()).max().orElseThrow() / 1_000_000);
        assertThat(shortestPark).as("shortest time from parking to delivery, ns").isGreaterThanOrEqualTo(retryDelay);
        // and none was dropped: every call that returned to a worker reached the secondary
        assertThat(o.returned()).as("calls returned to the workers, %d delivered", o.delivered())
                .isEqualTo(o.delivered());
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

    /** The slow-client point's module settings in a test SLA, as the ORB binds them. */
    private static org.irmi.sla.ModuleConfig actionOf(String slaFile) {
        return org.irmi.sla.Sla.load(Nodes.sla(slaFile)).isolationPoints().slowClient().orElseThrow()
                .action().module();
    }
}
