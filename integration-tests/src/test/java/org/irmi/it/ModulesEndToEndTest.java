package org.irmi.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.irmi.adaptation.AdaptationModules;
import org.irmi.adaptation.ModuleServices;
import org.irmi.isolation.AdaptationModule;
import org.irmi.isolation.CausalPair;
import org.irmi.isolation.Decision;
import org.irmi.isolation.IsolationRuntime;
import org.irmi.isolation.ModuleSettings;
import org.irmi.isolation.PointKind;
import org.irmi.isolation.SlowClientConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

/**
 * Each adaptation module the other end-to-end tests do not cover (reject: poison; reroute: slow
 * client), enforced by the slow-client point through a real I-RMI client ORB against a secondary
 * that becomes slow: the workers of a primary deliver 64 KB events, then every delivery takes
 * 50 ms.
 */
class ModulesEndToEndTest {
    private final List<ORB> orbs = new ArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
        Nodes.destroy(orbs.toArray(new ORB[0]));
    }

    private ORB orb() {
        ORB o = Nodes.irmi();
        orbs.add(o);
        return o;
    }

    record Outcome(IsolationRuntime runtime, IsolationGlue glue, TradeImpl secondary, long failures,
                   long maxQueue, long delivered) {
        long decisions(Decision.Action a) {
            return runtime.decisions(PointKind.SLOW_CLIENT, a);
        }
    }

    /** 1.5 s steady, then 3 s with a slow secondary; {@code workers} threads drain the queue. */
    private Outcome run(AdaptationModule module, int workers) throws Exception {
        TradeImpl secondary = new TradeImpl("secondary");
        String ior = Nodes.export(orb(), secondary);
        ORB primaryOrb = orb();
        IsolationRuntime rt = IsolationRuntime.builder()
                .slowClient(SlowClientConfig.custom()
                        .pair(CausalPair.of("events", "publish", "deliver"))
                        .window(Duration.ofSeconds(2)).queueGrowthPerSecond(5).maxQueueLength(100)
                        .queueLow(10).remoteRttHigh(Duration.ofMillis(20))
                        .remoteReportMaxAge(Duration.ofSeconds(1)).minHold(Duration.ofSeconds(1))
                        .build(), module)
                .build();
        IsolationGlue glue = new IsolationGlue(primaryOrb, rt, 100).call().start();
        closeables.add(glue);
        LinkedBlockingQueue<byte[]> queue = new LinkedBlockingQueue<>();
        AtomicLong maxQueue = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        AtomicBoolean running = new AtomicBoolean(true);
        closeables.add(() -> running.set(false));
        Trade sink = Nodes.lookup(primaryOrb, ior);
        for (int w = 0; w < workers; w++) {
            Thread t = new Thread(() -> {
                while (running.get()) {
                    try {
                        byte[] e = queue.poll(100, TimeUnit.MILLISECONDS);
                        if (e != null) {
                            sink.deliver(e);
                        }
                    } catch (InterruptedException ie) {
                        return;
                    } catch (Exception ex) {
                        failures.incrementAndGet();
                    }
                }
            }, "worker-" + w);
            t.setDaemon(true);
            t.start();
        }
        Thread source = new Thread(() -> {
            long next = System.nanoTime();
            while (running.get()) {
                queue.add(new byte[64 * 1024]);
                rt.slowClient().get().onIncoming("publish"); // the primary received an event
                maxQueue.accumulateAndGet(queue.size(), Math::max);
                next += 5_000_000L;
                java.util.concurrent.locks.LockSupport.parkNanos(next - System.nanoTime());
            }
        }, "source");
        source.setDaemon(true);
        source.start();
        Thread trace = new Thread(() -> {
            while (running.get()) {
                System.out.println(module.name() + " q=" + queue.size() + " " + ((org.irmi.isolation
                        .internal.DefaultSlowClientPoint) rt.slowClient().get()).evidence("events")
                        + " triggered=" + rt.slowClient().get().isTriggered("events"));
                java.util.concurrent.locks.LockSupport.parkNanos(250_000_000L);
            }
        }, "trace");
        trace.setDaemon(true);
        trace.start();
        Thread.sleep(1_500);
        maxQueue.set(0);
        secondary.slowNanos = 50_000_000L;
        Thread.sleep(3_000);
        running.set(false);
        Outcome o = new Outcome(rt, glue, secondary, failures.get(), maxQueue.get(),
                secondary.delivered.get());
        System.out.println(module.name() + ": failures=" + o.failures() + " maxQueue=" + o.maxQueue()
                + " delivered=" + o.delivered() + " decisions=" + rt.decisions(PointKind.SLOW_CLIENT,
                Decision.Action.valueOf(actionOf(module.name()))));
        return o;
    }

    private static String actionOf(String module) {
        return switch (module) {
            case "short-circuit" -> "SHORT_CIRCUIT";
            case "throttle" -> "THROTTLE";
            case "defer" -> "DEFER";
            case "degrade" -> "DEGRADE";
            default -> "REJECT";
        };
    }

    private static AdaptationModule module(String name, Map<String, Object> params,
                                           ModuleServices services) {
        return AdaptationModules.create(new ModuleSettings(name, params,
                Map.of(ModuleServices.class, services), services.nanoClock(), null));
    }

    @Test
    void shouldShortCircuitCallsToASlowSecondaryWithoutTheCallerNoticing() throws Exception {
        Outcome o = run(module("short-circuit", Map.of(), ModuleServices.defaults()), 1);
        assertThat(o.decisions(Decision.Action.SHORT_CIRCUIT)).isPositive();
        assertThat(o.glue().clientShortCircuits.get()).isPositive();
        assertThat(o.failures()).as("the worker never sees an exception").isZero();
        assertThat(o.delivered()).as("eliminated calls never reach the secondary")
                .isLessThan(o.delivered() + o.glue().clientShortCircuits.get());
    }

    @Test
    void shouldShrinkTheArgumentsWithTheApplicationsReducerWhenDegrading() throws Exception {
        ModuleServices services = ModuleServices.builder()
                .reducer("thumbnail", (op, args) -> new Object[]{new byte[1024]}).build();
        Outcome o = run(module("degrade", Map.of("reducer", "thumbnail"), services), 1);
        assertThat(o.decisions(Decision.Action.DEGRADE)).isPositive();
        // every degraded call arrives reduced (one may still be in flight when the run stops)
        assertThat(o.secondary().smallEvents.get()).as("deliveries that arrived reduced")
                .isPositive().isBetween(o.glue().clientDegrades.get() - 1, o.glue().clientDegrades.get());
        assertThat(o.failures()).isZero();
    }

    @Test
    void shouldPaceFlaggedCallsWhenThrottling() throws Exception {
        Outcome o = run(module("throttle", Map.of("rate", 10, "burst", 2), ModuleServices.defaults()),
                1);
        assertThat(o.decisions(Decision.Action.THROTTLE)).isPositive();
        assertThat(o.failures()).isZero();
    }

    @Test
    void shouldParkFlaggedCallsAndResubmitThemWhenDeferring() throws Exception {
        Outcome o = run(module("defer", Map.of("capacity", 8, "retryDelay", "100ms",
                "maxRetries", 50), ModuleServices.defaults()), 2);
        assertThat(o.decisions(Decision.Action.DEFER)).isPositive();
        assertThat(o.failures()).as("every parked call was resubmitted, none timed out").isZero();
    }

    @Test
    void shouldShrinkTheConcurrencyLimitWhenRoundTripsExceedTheTimeout() throws Exception {
        AdaptationModule limit = module("adaptive-limit", Map.of("algorithm", "aimd",
                "initialLimit", 4, "minLimit", 1, "maxLimit", 8, "backoffRatio", 0.5,
                "timeout", "20ms"), ModuleServices.defaults());
        Outcome o = run(limit, 4);
        assertThat(((org.irmi.adaptation.internal.AdaptiveLimitModule) limit).limit())
                .as("the limit backs off from 4").isLessThan(4);
        assertThat(o.decisions(Decision.Action.REJECT)).as("calls over the limit are refused")
                .isPositive();
        assertThat(o.failures()).isPositive().isLessThanOrEqualTo(o.decisions(Decision.Action.REJECT));
    }
}
