package org.irmi.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.rmi.RemoteException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.irmi.isolation.EpisodeReport;
import org.irmi.isolation.MinorCodes;
import org.irmi.isolation.PoisonMessagePoint;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.omg.CORBA.ORB;
import org.omg.CORBA.TRANSIENT;

/**
 * The poison scenario with nothing wired by hand: the server is an I-RMI ORB started with
 * {@code irmi.sla} pointing at an SLA file, so the ORB's own glue builds the poison point, its edge
 * detector, the per-request cost hook and the reject module from the SLA.
 */
class SlaDrivenPoisonEndToEndTest {
    private final List<ORB> orbs = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);

    @AfterEach
    void tearDown() {
        running.set(false);
        Nodes.destroy(orbs.toArray(new ORB[0]));
    }

    @Test
    void shouldFilterThePoisonOperationWhenTheSlaAsksForThePoisonPoint(@TempDir Path dir)
            throws Exception {
        Path sla = dir.resolve("backend.yaml");
        Files.writeString(sla, """
                service: backend
                isolationPoints:
                  poison:
                    baselineWindow: {length: 10s, buckets: 10}
                    detectionWindow: {length: 1s, buckets: 4}
                    coolDown: 5m
                    neverFilter: [quote]
                    action: {module: reject, kind: TRANSIENT}
                """);
        ORB server = Nodes.irmi("irmi.sla", sla.toString());
        orbs.add(server);
        TradeImpl impl = new TradeImpl("backend");
        String ior = Nodes.export(server, impl);
        PoisonMessagePoint point = Nodes.irmiOf(server).isolation().orElseThrow().runtime().poison()
                .orElseThrow();

        AtomicLong errors = new AtomicLong();
        for (int i = 0; i < 4; i++) {
            ORB own = Nodes.irmi();
            orbs.add(own);
            Trade mine = Nodes.lookup(own, ior);
            Thread t = new Thread(() -> {
                while (running.get()) {
                    try {
                        mine.quote("IBM");
                        mine.buy("IBM", 3);
                        Thread.sleep(1);
                    } catch (Exception e) {
                        errors.incrementAndGet();
                    }
                }
            }, "load-" + i);
            t.setDaemon(true);
            t.start();
        }
        Thread.sleep(5_000); // the baseline fills
        ORB direct = Nodes.irmi();
        orbs.add(direct);
        Trade trade = Nodes.lookup(direct, ior);
        trade.poison(4_000);
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (point.filtered().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        List<EpisodeReport> reports = point.episodeReports();
        System.out.println("sla-driven poison e2e: filtered " + point.filtered() + " after episodes "
                + reports);
        assertThat(point.filtered()).containsExactly("poison");
        EpisodeReport first = reports.stream().filter(r -> !r.filtered().isEmpty()).findFirst()
                .orElseThrow();
        assertThat(first.namedByCost()).isEqualTo("poison");
        Throwable refused = catchThrowable(() -> trade.poison(4_000));
        assertThat(refused).isInstanceOf(RemoteException.class);
        assertThat(((TRANSIENT) refused.getCause()).minor).isEqualTo(MinorCodes.POISON_FILTERED);
        assertThat(impl.poisons.get()).isEqualTo(1);
        running.set(false);
        assertThat(errors.get()).isZero();
    }
}
