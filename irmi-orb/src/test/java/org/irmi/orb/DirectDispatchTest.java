package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

import irmitest.Echo;
import irmitest.EchoHelper;
import irmitest.Refused;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.LocalObject;
import org.omg.CORBA.ORB;
import org.omg.PortableInterceptor.ORBInitInfo;
import org.omg.PortableInterceptor.ORBInitializer;
import org.omg.PortableInterceptor.ServerRequestInfo;
import org.omg.PortableInterceptor.ServerRequestInterceptor;
import org.omg.PortableServer.Current;
import org.omg.PortableServer.CurrentHelper;
import org.omg.PortableServer.IdAssignmentPolicyValue;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;
import org.omg.PortableServer.RequestProcessingPolicyValue;
import org.omg.PortableServer.Servant;
import org.omg.PortableServer.ServantActivator;
import org.omg.PortableServer.ServantRetentionPolicyValue;

/**
 * The direct path ({@code irmi.transport.direct_dispatch}): a dispatch worker runs the servant of a
 * plain request itself, with the POA current JacORB would give it, and answers failures as JacORB
 * does; everything it may not take goes through JacORB's POA queue. Real ORBs, stock JacORB clients;
 * the reader's own runs are off here (see {@link ReaderRunsTest}).
 */
class DirectDispatchTest {

    private static volatile java.util.concurrent.CountDownLatch BLOCKED = new java.util.concurrent.CountDownLatch(0);
    private static volatile java.util.concurrent.CountDownLatch RELEASE = new java.util.concurrent.CountDownLatch(0);

    private ORB server;
    private ORB client;
    private final java.util.List<ORB> moreClients = new java.util.ArrayList<>();

    @AfterEach
    void tearDown() {
        RELEASE.countDown();
        Orbs.destroy(moreClients.toArray(new ORB[0]));
        Orbs.destroy(client, server);
    }

    /** Answers questions about where and how it runs. */
    private static class Probe extends EchoServant {
        private final ORB orb;

        Probe(ORB orb) {
            this.orb = orb;
        }

        @Override
        public String echoString(String s) {
            switch (s) {
                case "thread":
                    return Thread.currentThread().getName();
                case "current":
                    try {
                        Current current = CurrentHelper.narrow(orb.resolve_initial_references("POACurrent"));
                        return current.get_POA().the_name() + "/"
                                + new String(current.get_object_id(), StandardCharsets.UTF_8)
                                + (current.get_servant() == this ? "/this" : "/other");
                    } catch (Exception e) {
                        return "no current: " + e;
                    }
                case "this":
                    return orb.object_to_string(_this_object());
                case "block":
                    BLOCKED.countDown();
                    try {
                        RELEASE.await(10, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return Thread.currentThread().getName();
                case "runtime":
                    throw new IllegalStateException("a bug in the servant");
                case "system":
                    throw new org.omg.CORBA.NO_PERMISSION("not you", 77, org.omg.CORBA.CompletionStatus.COMPLETED_YES);
                default:
                    return s;
            }
        }
    }

    /**
     * An I-RMI server whose direct path runs on the dispatch workers only: this class is about that
     * path; {@link ReaderRunsTest} covers the requests the reader runs itself.
     */
    private static ORB workers(String... extra) {
        String[] all = java.util.Arrays.copyOf(extra, extra.length + 2);
        all[extra.length] = "irmi.transport.inline_max_cost_us";
        all[extra.length + 1] = "0";
        return Orbs.irmi(all);
    }

    /** A probe whose oneway {@code ping} blocks until {@code RELEASE}, once it has counted {@code BLOCKED} down. */
    private static class BlockingPing extends Probe {
        BlockingPing(ORB orb) {
            super(orb);
        }

        @Override
        public void ping() {
            BLOCKED.countDown();
            try {
                RELEASE.await(10, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private Echo serveOnRoot(ORB serverOrb) {
        server = serverOrb;
        client = Orbs.stock();
        return EchoHelper.narrow(client.string_to_object(Orbs.serve(server, new Probe(server))));
    }

    private long direct() {
        return Orbs.transport(server).stats().directRequests();
    }

    @Test
    void shouldRunTheServantOnTheDispatchWorkerThatTookTheRequest() {
        Echo echo = serveOnRoot(workers());
        for (int i = 0; i < 20; i++) {
            assertThat(echo.echoString("call " + i)).isEqualTo("call " + i);
        }
        assertThat(echo.echoString("thread")).startsWith("irmi-dispatch-");
        // the first request of a connection negotiates its code sets on JacORB's path
        assertThat(direct()).isBetween(20L, 21L);
        assertThat(Orbs.transport(server).stats().messagesRead()).isEqualTo(21);
    }

    @Test
    void shouldGiveTheServantItsPoaCurrentAndItsOwnReference() throws Exception {
        server = workers();
        client = Orbs.stock();
        POA root = POAHelper.narrow(server.resolve_initial_references("RootPOA"));
        POA child = root.create_POA("direct-child", root.the_POAManager(), new org.omg.CORBA.Policy[] {
            root.create_id_assignment_policy(IdAssignmentPolicyValue.USER_ID)});
        root.the_POAManager().activate();
        Probe probe = new Probe(server);
        child.activate_object_with_id("obj-7".getBytes(StandardCharsets.UTF_8), probe);
        org.omg.CORBA.Object ref = child.id_to_reference("obj-7".getBytes(StandardCharsets.UTF_8));
        Echo echo = EchoHelper.narrow(client.string_to_object(server.object_to_string(ref)));
        echo.echoString("warm-up"); // code sets
        long before = direct();

        assertThat(echo.echoString("current")).isEqualTo("direct-child/obj-7/this");
        org.omg.CORBA.Object self = client.string_to_object(echo.echoString("this"));
        assertThat(self._is_equivalent(echo)).isTrue();
        assertThat(echo.echoString("thread")).startsWith("irmi-dispatch-");
        assertThat(direct() - before).isEqualTo(3);
    }

    @Test
    void shouldAnswerServantFailuresAsJacorbDoes() {
        Echo echo = serveOnRoot(workers());

        assertThat(directlyRun(echo, () -> assertThatThrownBy(() -> echo.echoString("runtime"))
                .isInstanceOf(org.omg.CORBA.UNKNOWN.class))).isEqualTo(1);
        assertThat(directlyRun(echo, () -> assertThatThrownBy(() -> echo.echoString("system"))
                .isInstanceOfSatisfying(org.omg.CORBA.NO_PERMISSION.class, e -> {
                    assertThat(e.minor).isEqualTo(77);
                    assertThat(e.completed).isEqualTo(org.omg.CORBA.CompletionStatus.COMPLETED_YES);
                }))).isEqualTo(1);
        assertThat(directlyRun(echo, () -> assertThatThrownBy(() -> echo.fail("no"))
                .isInstanceOfSatisfying(Refused.class, e -> assertThat(e.why).isEqualTo("no")))).isEqualTo(1);
        assertThat(echo.echoString("still served")).isEqualTo("still served");
    }

    /**
     * Runs {@code call} on a connection whose code sets are negotiated (a stock JacORB client opens a
     * new connection after a system exception) and returns how many requests the direct path took.
     */
    private long directlyRun(Echo echo, Runnable call) {
        assertThat(echo.echoString("warm-up")).isEqualTo("warm-up");
        long before = direct();
        call.run();
        return direct() - before;
    }

    @Test
    void shouldLeaveOnewaysAndObjectOperationsToJacorb() {
        Echo echo = serveOnRoot(workers());
        echo.echoString("warm-up");
        long before = direct();

        echo.ping();
        assertThat(echo._is_a(irmitest.EchoHelper.id())).isTrue();
        assertThat(echo._non_existent()).isFalse();
        assertThat(echo.echoString("after")).isEqualTo("after");
        assertThat(direct() - before).isEqualTo(1);
    }

    @Test
    void shouldRunAnAttributeAccessorDirectlyThoughItsNameStartsWithAnUnderscore() {
        Echo echo = serveOnRoot(workers());
        // _get_served is the servant's operation (as an RMI-IIOP getter's _get_x is), not CORBA::Object's
        assertThat(directlyRun(echo, () -> assertThat(echo.served()).isEqualTo("echo"))).isEqualTo(1);
    }

    @Test
    void shouldLeaveServantManagerPoasToJacorb() throws Exception {
        server = workers();
        client = Orbs.stock();
        POA root = POAHelper.narrow(server.resolve_initial_references("RootPOA"));
        POA managed = root.create_POA("managed", root.the_POAManager(), new org.omg.CORBA.Policy[] {
            root.create_id_assignment_policy(IdAssignmentPolicyValue.USER_ID),
            root.create_request_processing_policy(RequestProcessingPolicyValue.USE_SERVANT_MANAGER),
            root.create_servant_retention_policy(ServantRetentionPolicyValue.RETAIN)});
        AtomicInteger incarnations = new AtomicInteger();
        Probe probe = new Probe(server);
        managed.set_servant_manager(new Activator(incarnations, probe));
        root.the_POAManager().activate();
        org.omg.CORBA.Object ref = managed.create_reference_with_id("lazy".getBytes(StandardCharsets.UTF_8),
                irmitest.EchoHelper.id());
        Echo echo = EchoHelper.narrow(client.string_to_object(server.object_to_string(ref)));

        assertThat(echo.echoString("thread")).doesNotStartWith("irmi-dispatch-");
        assertThat(echo.echoString("again")).isEqualTo("again");
        assertThat(incarnations).hasValue(1);
        assertThat(direct()).isZero();
    }

    @Test
    void shouldHoldThePoasThreadPoolLimitOnBothPathsTogether() throws Exception {
        // thread_pool_max 2: two servants at once, on whichever path; a third request, from a client
        // with nothing in flight (so I-RMI's in-flight limit lets it through), waits in the POA's
        // queue until one of them ends, then runs on a POA thread
        server = workers("jacorb.poa.thread_pool_max", "2", "jacorb.poa.thread_pool_min", "2");
        String ior = Orbs.serve(server, new Probe(server));
        BLOCKED = new java.util.concurrent.CountDownLatch(3);
        RELEASE = new java.util.concurrent.CountDownLatch(1);
        java.util.List<Echo> echos = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ORB c = Orbs.stock();
            moreClients.add(c);
            Echo echo = EchoHelper.narrow(c.string_to_object(ior));
            echo.echoString("warm-up"); // its own connection, code sets negotiated, nothing in flight
            echos.add(echo);
        }
        long directBefore = direct();
        java.util.List<java.util.concurrent.CompletableFuture<String>> threads = new java.util.ArrayList<>();
        for (Echo echo : echos) {
            threads.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> echo.echoString("block")));
        }
        boolean all = BLOCKED.await(2, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(all).as("a third servant ran").isFalse();
        assertThat(BLOCKED.getCount()).as("servants that have not started").isEqualTo(1);
        RELEASE.countDown();
        java.util.List<String> names = new java.util.ArrayList<>();
        for (var t : threads) {
            names.add(t.get(10, java.util.concurrent.TimeUnit.SECONDS));
        }
        assertThat(names).filteredOn(n -> n.startsWith("irmi-dispatch-")).hasSize(2);
        assertThat(direct() - directBefore).isEqualTo(2);
    }

    @Test
    void shouldNotLetALaterRequestOvertakeAOnewayThatWaitsInThePoa() throws Exception {
        // one client connection, two POAs: the oneway goes to a POA whose manager holds its requests,
        // so it waits in JacORB's path without starting; the connection's later two-ways, to an active
        // POA, must not start on the direct path before it (stock JacORB starts a connection's
        // requests in the order of its POA's queue). Once the oneway's servant has run, they take the
        // direct path again.
        server = workers();
        client = Orbs.stock();
        POA root = POAHelper.narrow(server.resolve_initial_references("RootPOA"));
        root.the_POAManager().activate();
        POA held = root.create_POA("held", null, new org.omg.CORBA.Policy[0]);
        AtomicInteger pings = new AtomicInteger();
        byte[] heldId = held.activate_object(new EchoServant() {
            @Override
            public void ping() {
                pings.incrementAndGet();
            }
        });
        Echo heldEcho = EchoHelper.narrow(client.string_to_object(server.object_to_string(held.id_to_reference(heldId))));
        Echo echo = EchoHelper.narrow(client.string_to_object(server.object_to_string(
                root.servant_to_reference(new Probe(server)))));
        assertThat(echo.echoString("warm-up")).isEqualTo("warm-up"); // the connection's code sets
        assertThat(echo.echoString("thread")).startsWith("irmi-dispatch-");

        heldEcho.ping(); // waits: its POA manager is still holding
        long directBefore = direct();
        for (int i = 0; i < 5; i++) {
            assertThat(echo.echoString("thread")).as("request %d behind the waiting oneway", i)
                    .doesNotStartWith("irmi-dispatch-");
        }
        assertThat(direct()).as("requests the direct path took while the oneway waited").isEqualTo(directBefore);
        assertThat(pings).hasValue(0);

        held.the_POAManager().activate();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (pings.get() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(pings).as("the oneway ran once its POA was active").hasValue(1);
        for (int i = 0; i < 5; i++) {
            assertThat(echo.echoString("thread")).startsWith("irmi-dispatch-");
        }
        assertThat(direct() - directBefore).isEqualTo(5);
    }

    @Test
    void shouldKeepLaterRequestsOnJacorbsPathUntilTheOnewayEnds() throws Exception {
        // the oneway's servant has started and blocks: the connection's later two-ways still go
        // JacORB's way (to other POA threads) until it ends, so none can overtake its first statements
        server = workers();
        String ior = Orbs.serve(server, new BlockingPing(server));
        client = Orbs.stock();
        Echo echo = EchoHelper.narrow(client.string_to_object(ior));
        assertThat(echo.echoString("warm-up")).isEqualTo("warm-up"); // the connection's code sets
        assertThat(echo.echoString("thread")).startsWith("irmi-dispatch-");
        BLOCKED = new java.util.concurrent.CountDownLatch(1);
        RELEASE = new java.util.concurrent.CountDownLatch(1);
        echo.ping();
        assertThat(BLOCKED.await(5, java.util.concurrent.TimeUnit.SECONDS)).as("the oneway's servant started").isTrue();
        long directBefore = direct();
        for (int i = 0; i < 5; i++) {
            assertThat(echo.echoString("thread")).as("request %d while the oneway runs", i)
                    .doesNotStartWith("irmi-dispatch-");
        }
        assertThat(direct()).isEqualTo(directBefore);

        RELEASE.countDown();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        boolean directAgain = false;
        while (!directAgain && System.nanoTime() < deadline) {
            // its end is reported after the servant returns, a moment after RELEASE
            directAgain = echo.echoString("thread").startsWith("irmi-dispatch-");
        }
        assertThat(directAgain).as("the direct path taken again once the oneway ended").isTrue();
    }

    @Test
    void shouldComeBackToTheDirectPathOnceTheOnewayEndsThoughARequestThatFollowedItStillRuns() throws Exception {
        // an application server's ORB calls its backend from many threads over one connection, so
        // some two-way of the connection is nearly always in flight. The two-ways that follow a
        // oneway JacORB's way must not hold the later requests back themselves: else, under a steady
        // load, each follower keeps the next one on JacORB's path and the connection never comes back
        java.util.concurrent.CountDownLatch followerStarted = new java.util.concurrent.CountDownLatch(1);
        server = workers();
        String ior = Orbs.serve(server, new BlockingPing(server) {
            @Override
            public int sleepMillis(int millis) {
                followerStarted.countDown();
                return super.sleepMillis(millis);
            }
        });
        client = Orbs.stock();
        Echo echo = EchoHelper.narrow(client.string_to_object(ior));
        assertThat(echo.echoString("warm-up")).isEqualTo("warm-up");
        BLOCKED = new java.util.concurrent.CountDownLatch(1);
        RELEASE = new java.util.concurrent.CountDownLatch(1);
        echo.ping();
        assertThat(BLOCKED.await(5, java.util.concurrent.TimeUnit.SECONDS)).as("the oneway's servant started").isTrue();
        java.util.concurrent.CompletableFuture<Integer> follower =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> echo.sleepMillis(6_000));
        assertThat(followerStarted.await(5, java.util.concurrent.TimeUnit.SECONDS)).as("the follower's servant started").isTrue();
        assertThat(echo.echoString("thread")).as("while the oneway runs").doesNotStartWith("irmi-dispatch-");

        RELEASE.countDown();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(3);
        boolean directAgain = false;
        while (!directAgain && System.nanoTime() < deadline) {
            directAgain = echo.echoString("thread").startsWith("irmi-dispatch-");
        }
        assertThat(follower).as("the follower still runs").isNotDone();
        assertThat(directAgain).as("the direct path taken again once the oneway ended, beside the follower").isTrue();
        assertThat(follower.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(6_000);
    }

    @Test
    void shouldHandAConnectionsOnewaysToThePoaInTheOrderTheyWereRead() throws Exception {
        // 96 oneways pipelined on one connection to 8 objects in turn, in a POA whose manager holds
        // them, so they wait in the POA's queue in the order the dispatch workers handed them to
        // JacORB; then one POA thread runs that queue in order. The workers hand a connection's
        // oneways over in the order they were read (HandOffLane), as stock JacORB's one reader
        // thread per connection does, so the servants run in the order the oneways were sent
        server = workers("jacorb.poa.thread_pool_max", "1", "jacorb.poa.thread_pool_min", "1");
        client = Orbs.stock();
        POA root = POAHelper.narrow(server.resolve_initial_references("RootPOA"));
        root.the_POAManager().activate();
        POA held = root.create_POA("held", null, new org.omg.CORBA.Policy[0]);
        java.util.List<Integer> ran = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        java.util.List<Echo> objects = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) {
            int index = i;
            byte[] id = held.activate_object(new EchoServant() {
                @Override
                public void ping() {
                    ran.add(index);
                }
            });
            objects.add(EchoHelper.narrow(client.string_to_object(server.object_to_string(held.id_to_reference(id)))));
        }
        Echo echo = EchoHelper.narrow(client.string_to_object(Orbs.serve(server, new Probe(server))));
        assertThat(echo.echoString("warm-up")).isEqualTo("warm-up"); // one connection for all, code sets negotiated
        int sent = 96; // within JacORB's default queue_max (100)
        for (int i = 0; i < sent; i++) {
            objects.get(i % 8).ping();
        }
        // a two-way behind them: it goes JacORB's way too, and returns once they have all been handed over
        assertThat(echo.echoString("after")).isEqualTo("after");
        assertThat(ran).as("oneways run while their POA holds").isEmpty();
        held.the_POAManager().activate();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (ran.size() < sent && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        java.util.List<Integer> expected = new java.util.ArrayList<>();
        for (int i = 0; i < sent; i++) {
            expected.add(i % 8);
        }
        synchronized (ran) {
            assertThat(ran).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void shouldTakeJacorbsPathWhenTurnedOff() {
        Echo echo = serveOnRoot(Orbs.irmi("irmi.transport.direct_dispatch", "false"));
        for (int i = 0; i < 5; i++) {
            echo.echoString("call " + i);
        }
        assertThat(echo.echoString("thread")).doesNotStartWith("irmi-dispatch-");
        assertThat(direct()).isZero();
    }

    @Test
    void shouldTakeJacorbsPathWhenTheApplicationRegistersAServerInterceptor() {
        CountingInitializer.received.set(0);
        Echo echo = serveOnRoot(Orbs.irmi(
                "org.omg.PortableInterceptor.ORBInitializerClass." + CountingInitializer.class.getName(), ""));
        for (int i = 0; i < 5; i++) {
            echo.echoString("call " + i);
        }
        assertThat(CountingInitializer.received).hasValue(5);
        assertThat(direct()).isZero();
    }

    private static final class Activator extends LocalObject implements ServantActivator {
        private final AtomicInteger incarnations;
        private final Servant servant;

        Activator(AtomicInteger incarnations, Servant servant) {
            this.incarnations = incarnations;
            this.servant = servant;
        }

        @Override
        public Servant incarnate(byte[] oid, POA adapter) {
            incarnations.incrementAndGet();
            return servant;
        }

        @Override
        public void etherealize(byte[] oid, POA adapter, Servant servant, boolean cleanup, boolean remaining) {
        }
    }

    /** Registers a server interceptor that counts the requests it sees, as an application's would. */
    public static final class CountingInitializer extends LocalObject implements ORBInitializer {
        static final AtomicInteger received = new AtomicInteger();

        @Override
        public void pre_init(ORBInitInfo info) {
            try {
                info.add_server_request_interceptor(new Counting());
            } catch (org.omg.PortableInterceptor.ORBInitInfoPackage.DuplicateName e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void post_init(ORBInitInfo info) {
        }
    }

    private static final class Counting extends LocalObject implements ServerRequestInterceptor {
        @Override
        public String name() {
            return "counting";
        }

        @Override
        public void destroy() {
        }

        @Override
        public void receive_request_service_contexts(ServerRequestInfo ri) {
        }

        @Override
        public void receive_request(ServerRequestInfo ri) {
            CountingInitializer.received.incrementAndGet();
        }

        @Override
        public void send_reply(ServerRequestInfo ri) {
        }

        @Override
        public void send_exception(ServerRequestInfo ri) {
        }

        @Override
        public void send_other(ServerRequestInfo ri) {
        }
    }
}
