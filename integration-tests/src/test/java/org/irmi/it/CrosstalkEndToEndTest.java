package org.irmi.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.rmi.CORBA.Tie;
import javax.rmi.CORBA.Util;
import javax.rmi.PortableRemoteObject;
import org.irmi.orb.ConnectionView;
import org.irmi.orb.IrmiTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.omg.CORBA.ORB;
import org.omg.CORBA.Policy;
import org.omg.PortableServer.IdAssignmentPolicyValue;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;
import org.omg.PortableServer.Servant;

/**
 * The QoS-crosstalk point through the real selector transport: three client ORBs (one connection
 * each) stream 256 KB requests to three objects whose keys carry weights 1, 2 and 4; each client
 * keeps several requests in flight so that its connection always has data waiting. The server's
 * ORB runs {@code irmi.sla}: first {@code sla/crosstalk-control.yaml} (the point switched off: the
 * control phase, where the heavy stream does not get 4/7), then {@code sla/crosstalk.yaml} renamed
 * over it, which the ORB reloads; with the point on, the shares of bytes the one reader thread
 * reads must be 1:2:4 within 10%.
 */
class CrosstalkEndToEndTest {
    private final List<ORB> orbs = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);

    @AfterEach
    void tearDown() {
        running.set(false);
        Nodes.destroy(orbs.toArray(new ORB[0]));
    }

    private static String exportWithId(ORB orb, POA poa, String id, java.rmi.Remote impl)
            throws Exception {
        PortableRemoteObject.exportObject(impl);
        Tie tie = Util.getTie(impl);
        poa.activate_object_with_id(id.getBytes(StandardCharsets.US_ASCII), (Servant) tie);
        return orb.object_to_string(poa.id_to_reference(id.getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void shouldShareReadBytesOneToTwoToFourWhileEveryStreamHasDataWaiting(@TempDir Path dir) throws Exception {
        Path sla = dir.resolve("crosstalk-server.yaml");
        Files.copy(Nodes.sla("crosstalk-control.yaml"), sla);
        ORB server = Nodes.irmi(sla);
        orbs.add(server);
        POA root = POAHelper.narrow(server.resolve_initial_references("RootPOA"));
        POA poa = root.create_POA("CrosstalkPOA", root.the_POAManager(), new Policy[]{
                root.create_id_assignment_policy(IdAssignmentPolicyValue.USER_ID)});
        root.the_POAManager().activate();
        String[] ids = {"stream-w1", "stream-w2", "stream-w4"};
        String[] iors = new String[3];
        for (int i = 0; i < 3; i++) {
            iors[i] = exportWithId(server, poa, ids[i], new TradeImpl(ids[i]));
        }
        assertThat(Nodes.runtime(server).crosstalkConfig()).as("control: the point is switched off").isEmpty();
        IrmiTransport transport = Nodes.transport(server);

        // one client ORB per stream, connected one after the other to learn each connection's id
        long[] connection = new long[3];
        List<Trade> stubs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Set<Long> before = new HashSet<>();
            for (ConnectionView c : transport.connections()) {
                before.add(c.connectionId());
            }
            ORB client = Nodes.irmi();
            orbs.add(client);
            Trade t = Nodes.lookup(client, iors[i]);
            t.bulk(new byte[16]);
            for (ConnectionView c : transport.connections()) {
                if (!before.contains(c.connectionId())) {
                    connection[i] = c.connectionId();
                }
            }
            stubs.add(t);
        }
        AtomicLong errors = new AtomicLong();
        for (int i = 0; i < 3; i++) {
            Trade t = stubs.get(i);
            // enough requests in flight that every connection always has data waiting; the
            // heavier streams get more, since they must keep a larger share of the reader busy
            for (int k = 0; k < 6 + 3 * i; k++) {
                Thread th = new Thread(() -> {
                    byte[] payload = new byte[256 * 1024];
                    while (running.get()) {
                        try {
                            t.bulk(payload);
                        } catch (Exception e) {
                            errors.incrementAndGet();
                        }
                    }
                }, "stream-" + i + "-" + k);
                th.setDaemon(true);
                th.start();
            }
        }
        // control: the same streams without the point (every connection has the same budget)
        Thread.sleep(1_000);
        Map<Long, Long> c0 = bytesRead(transport);
        Thread.sleep(3_000);
        Map<Long, Long> c1 = bytesRead(transport);
        double[] control = new double[3];
        double controlTotal = 0;
        for (int i = 0; i < 3; i++) {
            control[i] = c1.get(connection[i]) - c0.get(connection[i]);
            controlTotal += control[i];
        }
        // switch the point on as an operator would: a complete file renamed over the SLA
        Path next = dir.resolve("crosstalk-server.yaml.new");
        Files.copy(Nodes.sla("crosstalk.yaml"), next);
        Files.move(next, sla, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        long reloadDeadline = System.nanoTime() + 10_000_000_000L;
        while (Nodes.runtime(server).crosstalkConfig().isEmpty() && System.nanoTime() < reloadDeadline) {
            Thread.sleep(50);
        }
        assertThat(Nodes.runtime(server).crosstalkConfig()).as("the ORB reloaded the SLA with the point on")
                .isPresent();
        Thread.sleep(2_000); // the point sees three active streams and sets their budgets
        // The claim holds while every stream has data waiting. On a busy 2-core machine the client
        // threads sometimes cannot keep a stream backlogged, so measure in windows of 4 s and use
        // the first in which all three streams were backlogged in (nearly) every turn: each read
        // its whole budget in the same number of turns, and those turns carried its bytes.
        double[] read = new double[3];
        double total = 0;
        Map<Long, Integer> budgets = new HashMap<>();
        String backlog = "";
        boolean backlogged = false;
        for (int attempt = 0; attempt < 3 && !backlogged; attempt++) {
            Map<Long, ConnectionView> start = views(transport);
            Thread.sleep(4_000);
            Map<Long, ConnectionView> end = views(transport);
            total = 0;
            long minFilled = Long.MAX_VALUE;
            long maxFilled = 0;
            double minFilledShare = 1;
            for (int i = 0; i < 3; i++) {
                ConnectionView a = start.get(connection[i]);
                ConnectionView b = end.get(connection[i]);
                read[i] = b.bytesRead() - a.bytesRead();
                total += read[i];
                long filled = b.budgetFilledTurns() - a.budgetFilledTurns();
                minFilled = Math.min(minFilled, filled);
                maxFilled = Math.max(maxFilled, filled);
                minFilledShare = Math.min(minFilledShare,
                        read[i] == 0 ? 0 : Math.min(1.0, filled * (double) b.readBudgetBytes() / read[i]));
                budgets.put(connection[i], b.readBudgetBytes());
            }
            backlog = String.format("attempt %d: budget-filled turns min %d max %d, bytes from filled turns >= %.2f",
                    attempt + 1, minFilled, maxFilled, minFilledShare);
            System.out.println("crosstalk e2e backlog " + backlog);
            backlogged = maxFilled > 0 && minFilled >= 0.9 * maxFilled && minFilledShare >= 0.9;
        }
        running.set(false);
        System.out.printf("crosstalk e2e: without the point shares %.3f %.3f %.3f; with weights 1:2:4 "
                        + "read %.1f MB in 4 s; shares %.3f %.3f %.3f (target 0.143 "
                        + "0.286 0.571); budgets %d %d %d; errors %d%n", control[0] / controlTotal,
                control[1] / controlTotal, control[2] / controlTotal, total / 1e6, read[0] / total,
                read[1] / total, read[2] / total, budgets.get(connection[0]),
                budgets.get(connection[1]), budgets.get(connection[2]), errors.get());
        assertThat(budgets.get(connection[2])).isGreaterThan(budgets.get(connection[1]))
                .isGreaterThan(budgets.get(connection[0]));
        assertThat(control[2] / controlTotal).as("without the point the heavy stream has no 4/7")
                .isLessThan(0.5);
        assumeTrue(backlogged, "the machine was too busy for the client threads to keep every stream "
                + "backlogged, so the 1:2:4 claim (which holds while every stream has data waiting) could not "
                + "be measured; last window " + backlog);
        assertThat(read[0] / total).isCloseTo(1 / 7.0, within(0.1 / 7));
        assertThat(read[1] / total).isCloseTo(2 / 7.0, within(0.2 / 7));
        assertThat(read[2] / total).isCloseTo(4 / 7.0, within(0.4 / 7));
        assertThat(errors.get()).isZero();
    }

    private static Map<Long, ConnectionView> views(IrmiTransport transport) {
        Map<Long, ConnectionView> m = new HashMap<>();
        for (ConnectionView c : transport.connections()) {
            m.put(c.connectionId(), c);
        }
        return m;
    }

    private static Map<Long, Long> bytesRead(IrmiTransport transport) {
        Map<Long, Long> m = new HashMap<>();
        for (ConnectionView c : transport.connections()) {
            m.put(c.connectionId(), c.bytesRead());
        }
        return m;
    }
}
