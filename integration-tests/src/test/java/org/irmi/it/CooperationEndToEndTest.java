package org.irmi.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.irmi.adaptation.AdaptationModules;
import org.irmi.adaptation.ModuleServices;
import org.irmi.isolation.Decision;
import org.irmi.isolation.DecisionEvent;
import org.irmi.isolation.IsolationRuntime;
import org.irmi.isolation.ModuleSettings;
import org.irmi.isolation.PointKind;
import org.irmi.isolation.PoisonConfig;
import org.irmi.isolation.SlowClientConfig;
import org.irmi.monitors.Clock;
import org.irmi.monitors.EdgeDetector;
import org.irmi.monitors.EdgeDetectorConfig;
import org.irmi.monitors.LocalResourceMonitor;
import org.irmi.monitors.WindowConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

/**
 * Isolation points cooperating across nodes (the paper's future work): a backend whose poison
 * point sees overload advertises it in the load report on its replies; the slow-client point of a
 * front node that calls it reacts to the advertisement alone, with no queue of its own grown.
 */
class CooperationEndToEndTest {
    private final List<ORB> orbs = new ArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);

    @AfterEach
    void tearDown() throws Exception {
        running.set(false);
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

    @Test
    void shouldShedCallsToABackendThatAdvertisesOverloadBeforeTheCallersQueueGrows()
            throws Exception {
        ORB backendOrb = orb();
        TradeImpl backend = new TradeImpl("backend");
        String ior = Nodes.export(backendOrb, backend);
        LocalResourceMonitor monitor = LocalResourceMonitor.of(
                WindowConfig.of(Duration.ofSeconds(1), 4), Clock.system()).start();
        closeables.add(monitor);
        IsolationGlue[] holder = new IsolationGlue[1];
        IsolationRuntime backendRt = IsolationRuntime.builder()
                .poison(PoisonConfig.custom().advertiseOverload(Duration.ofSeconds(2)).build(),
                        AdaptationModules.create(ModuleSettings.of("reject")))
                .edges(EdgeDetector.of(EdgeDetectorConfig.custom().throughputDropPercent(30)
                                .resourceRisePercent(50).recoveryPercent(20).baselineSamples(8)
                                .minBaselineSamples(4).maxEpisode(Duration.ofSeconds(20)).build()),
                        () -> holder[0].sample())
                .build();
        holder[0] = new IsolationGlue(backendOrb, backendRt, 250).serve(monitor);
        holder[0].start(); // after holder[0] is set: the ticker samples through it
        closeables.add(holder[0]);

        ORB frontOrb = orb();
        List<DecisionEvent> frontEvents = new CopyOnWriteArrayList<>();
        IsolationRuntime frontRt = IsolationRuntime.builder()
                .slowClient(SlowClientConfig.custom().reactToPeerOverload(true)
                                .remoteReportMaxAge(Duration.ofSeconds(1)).build(),
                        AdaptationModules.create(new ModuleSettings("short-circuit", Map.of(),
                                Map.of(ModuleServices.class, ModuleServices.defaults()),
                                System::nanoTime, null)))
                .listener(frontEvents::add)
                .build();
        IsolationGlue front = new IsolationGlue(frontOrb, frontRt, 100).call().start();
        closeables.add(front);
        Trade viaFront = Nodes.lookup(frontOrb, ior);
        AtomicLong frontErrors = new AtomicLong();
        AtomicLong eliminated = new AtomicLong();
        for (int i = 0; i < 3; i++) {
            Thread t = new Thread(() -> {
                while (running.get()) {
                    try {
                        if (viaFront.quote("IBM") == null) {
                            eliminated.incrementAndGet(); // completed locally with the default
                        }
                        Thread.sleep(1);
                    } catch (Exception e) {
                        frontErrors.incrementAndGet();
                    }
                }
            }, "front-" + i);
            t.setDaemon(true);
            t.start();
        }
        Thread.sleep(4_000);
        assertThat(frontRt.decisions(PointKind.SLOW_CLIENT, Decision.Action.SHORT_CIRCUIT))
                .as("nothing is shed while the backend is healthy").isZero();

        Trade direct = Nodes.lookup(orb(), ior);
        direct.poison(3_000); // overload the backend from elsewhere
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (frontEvents.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        running.set(false);
        System.out.printf("cooperation e2e: backend episodes %d, front short-circuits %d, "
                        + "first front event %s%n", backendRt.poison().get().episodes(),
                frontRt.decisions(PointKind.SLOW_CLIENT, Decision.Action.SHORT_CIRCUIT),
                frontEvents.isEmpty() ? "none" : frontEvents.get(0).toLogLine());
        assertThat(frontEvents).as("the front reacted to the backend's advertisement").isNotEmpty();
        DecisionEvent first = frontEvents.get(0);
        assertThat(first.decision()).isInstanceOf(Decision.ShortCircuit.class);
        assertThat(first.evidence().get("remoteOverloaded")).isEqualTo(1.0);
        assertThat(first.evidence().values()).as("no queue evidence was needed")
                .doesNotContainKey("queueEstimate");
        assertThat(eliminated.get()).isPositive();
        assertThat(frontErrors.get()).isZero();
    }
}
