package org.irmi.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.core.ConditionTimeoutException;
import org.irmi.isolation.Decision;
import org.irmi.isolation.DecisionEvent;
import org.irmi.isolation.IsolationRuntime;
import org.irmi.isolation.PointKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

/**
 * Isolation points cooperating across nodes (the paper's future work): a backend whose poison
 * point sees overload advertises it in the load report on its replies; the slow-client point of a
 * front node that calls it reacts to the advertisement alone, with no queue of its own grown. Both
 * ORBs build their points themselves from {@code irmi.sla} ({@code sla/cooperation-backend.yaml},
 * {@code sla/cooperation-front.yaml}): the load report is the one the ORB's glue attaches to every
 * reply and reads from every reply.
 */
class CooperationEndToEndTest {
    private final List<ORB> orbs = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);

    @AfterEach
    void tearDown() {
        running.set(false);
        Nodes.destroy(orbs.toArray(new ORB[0]));
    }

    private ORB track(ORB o) {
        orbs.add(o);
        return o;
    }

    @Test
    void shouldShedCallsToABackendThatAdvertisesOverloadBeforeTheCallersQueueGrows()
            throws Exception {
        ORB backendOrb = track(Nodes.irmi(Nodes.sla("cooperation-backend.yaml")));
        TradeImpl backend = new TradeImpl("backend");
        String ior = Nodes.export(backendOrb, backend);
        IsolationRuntime backendRt = Nodes.runtime(backendOrb);

        ORB frontOrb = track(Nodes.irmi(Nodes.sla("cooperation-front.yaml")));
        IsolationRuntime frontRt = Nodes.runtime(frontOrb);
        List<DecisionEvent> frontEvents = new CopyOnWriteArrayList<>();
        frontRt.addListener(frontEvents::add);
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
        // the backend learns its baseline from the front's calls: until then no poison episode could open
        await("the backend's edge detector baseline").atMost(Duration.ofSeconds(60))
                .until(Nodes.isolation(backendOrb)::edgeBaselineReady);
        assertThat(frontRt.decisions(PointKind.SLOW_CLIENT, Decision.Action.SHORT_CIRCUIT))
                .as("nothing is shed while the backend is healthy").isZero();

        Trade direct = Nodes.lookup(track(Nodes.irmi()), ior);
        direct.poison(3_000); // overload the backend from elsewhere
        try {
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> !frontEvents.isEmpty());
        } catch (ConditionTimeoutException noReaction) {
            // reported below with the counts
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
