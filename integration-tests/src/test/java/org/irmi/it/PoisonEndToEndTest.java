package org.irmi.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import java.rmi.RemoteException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.irmi.isolation.EpisodeReport;
import org.irmi.isolation.MinorCodes;
import org.irmi.isolation.PoisonMessagePoint;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;
import org.omg.CORBA.TRANSIENT;

/**
 * The paper's poison-message scenario at small scale, through real ORBs over loopback: an I-RMI
 * server, a closed-loop load of cheap calls from I-RMI clients, and one call of an operation
 * that allocates 10 KB arrays in a tight loop for 4 s. Nothing is wired by hand: the server's ORB
 * is started with {@code irmi.sla} = {@code sla/poison.yaml}, so the ORB's own glue builds the
 * poison point, its edge detector, the per-request cost hook and the reject module.
 */
class PoisonEndToEndTest {
    /** The calls a throughput is measured over: about 3 s of the load on a quiet machine (6,000 calls/s). */
    private static final long RATE_CALLS = 18_000;
    private ORB server;
    private ORB client;
    private final AtomicBoolean loadRunning = new AtomicBoolean(true);
    private final List<ORB> loadOrbs = new ArrayList<>();

    @AfterEach
    void tearDown() {
        loadRunning.set(false);
        Nodes.destroy(loadOrbs.toArray(new ORB[0]));
        Nodes.destroy(client, server);
    }

    /**
     * The load's throughput over its next {@link #RATE_CALLS} calls, calls per second (at most a minute:
     * a load that stopped fails the test).
     */
    private static double callsPerSecond(AtomicLong calls) {
        long c0 = calls.get();
        long t0 = System.nanoTime();
        await("the load's next " + RATE_CALLS + " calls").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(10))
                .until(() -> calls.get() - c0 >= RATE_CALLS);
        return (calls.get() - c0) / ((System.nanoTime() - t0) / 1e9);
    }

    @Test
    void shouldFindPoisonInItsFirstEpisodeAndFilterItWhileNormalCallsKeepTheirThroughput()
            throws Exception {
        server = Nodes.irmi(Nodes.sla("poison.yaml"));
        TradeImpl impl = new TradeImpl("backend");
        String ior = Nodes.export(server, impl);
        PoisonMessagePoint point = Nodes.runtime(server).poison().orElseThrow();

        client = Nodes.irmi();
        Trade trade = Nodes.lookup(client, ior);
        // one ORB (one connection) per load thread: independent clients, as in the paper's load
        AtomicLong calls = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        List<Thread> load = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ORB own = Nodes.irmi();
            loadOrbs.add(own);
            Trade mine = Nodes.lookup(own, ior);
            Thread t = new Thread(() -> {
                while (loadRunning.get()) {
                    try {
                        mine.quote("IBM");
                        mine.buy("IBM", 3);
                        calls.addAndGet(2);
                        Thread.sleep(1);
                    } catch (Exception e) {
                        errors.incrementAndGet();
                    }
                }
            }, "load-" + i);
            t.setDaemon(true);
            t.start();
            load.add(t);
        }
        // steady state: the edge detector learns its baseline (a whole baselineWindow of traffic)
        await("the edge detector's baseline").atMost(Duration.ofSeconds(60))
                .until(Nodes.isolation(server)::edgeBaselineReady);
        double steady = callsPerSecond(calls);

        long poisonStart = System.nanoTime();
        trade.poison(4_000); // the first poison call runs: nothing knows it yet
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(point.filtered())
                .as("filtered after the first poison call; episodes: " + point.episodeReports()).isNotEmpty());
        double secondsToIdentify = (System.nanoTime() - poisonStart) / 1e9;
        List<EpisodeReport> reports = point.episodeReports();

        assertThat(point.filtered()).as("filtered after the first poison call; episodes: "
                + reports).containsExactly("poison");
        // the first episode the poison took part in named it by its cost. A GC blip on this shared
        // machine may have made an earlier episode, before the poison ran, that named nothing.
        EpisodeReport first = reports.stream().filter(r -> !r.filtered().isEmpty()).findFirst()
                .orElseThrow();
        assertThat(first.namedByCost()).isEqualTo("poison");
        assertThat(reports.stream().filter(r -> r.episode() < first.episode()))
                .as("earlier episodes: the poison was not running yet")
                .allSatisfy(r -> assertThat(r.inFlightAtRise()).doesNotContain("poison"));

        Throwable refused = catchThrowable(() -> trade.poison(4_000));
        assertThat(refused).isInstanceOf(RemoteException.class);
        assertThat(refused.getCause()).isInstanceOf(TRANSIENT.class);
        assertThat(((TRANSIENT) refused.getCause()).minor).isEqualTo(MinorCodes.POISON_FILTERED);
        assertThat(impl.poisons.get()).isEqualTo(1);

        double after = callsPerSecond(calls);
        loadRunning.set(false);
        System.out.printf("poison e2e: steady %.0f calls/s, after filtering %.0f calls/s (%.0f%%), "
                        + "identified %.1f s after the poison call started in episode %d, errors %d%n",
                steady, after, 100 * after / steady, secondsToIdentify, first.episode(), errors.get());
        assertThat(after).as("normal throughput after the poison is filtered").isGreaterThan(0.8 * steady);
        assertThat(errors.get()).isZero();
        assertThat(point.filtered()).doesNotContain("quote", "buy");
        // what an operator scraping the ORB's meters sees
        io.micrometer.core.instrument.MeterRegistry meters = Nodes.isolation(server).meters();
        assertThat(meters.get("irmi.isolation.decisions").tag("point", "poison_message").tag("action", "reject")
                .functionCounter().count()).isGreaterThanOrEqualTo(1.0);
        assertThat(meters.get("irmi.isolation.poison.filtered").gauge().value()).isEqualTo(1.0);
    }
}
