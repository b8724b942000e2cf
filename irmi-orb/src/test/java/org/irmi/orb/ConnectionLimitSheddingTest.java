package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.util.Map;

import irmitest.Echo;
import irmitest.EchoHelper;

import org.irmi.orb.internal.TransportConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

/**
 * Issue 38, part 2: at a connection limit the connections that cost others are shed, not the
 * newcomer. Real sockets, a real I-RMI server and a stock JacORB client. A connection that never
 * completed a message may be shed only once it had a second to send its first message, so the tests
 * let that second pass before the newcomer comes.
 */
class ConnectionLimitSheddingTest {

    /** How long a newcomer has to complete its first message before it may be shed (docs/orb.md). */
    private static final long GRACE_MILLIS = 1000;
    private static final InetAddress HOST_A = address("127.0.0.2");
    private static final InetAddress HOST_B = address("127.0.0.3");

    private ORB server;
    private ORB client;
    private ORB other;

    @AfterEach
    void tearDown() {
        Orbs.destroy(client, other, server);
    }

    @Test
    void shouldServeANewClientWhileStalledConnectionsHoldEveryPlaceOfMaxServerConnections() throws Exception {
        server = Orbs.irmi(TransportConfig.MAX_SERVER_CONNECTIONS, "100");
        String ior = Orbs.serve(server, new EchoServant());
        IrmiTransport transport = Orbs.transport(server);
        try (StalledSockets stalled = StalledSockets.open(transport.port(), 100, HOST_A)) {
            UnsetConnectionLimitsTest.awaitOpen(transport, 100);
            stalled.awaitOlderThan(GRACE_MILLIS);
            client = Orbs.stock();

            assertThat(EchoHelper.narrow(client.string_to_object(ior)).echoString("newcomer")).isEqualTo("newcomer");
            TransportStats s = transport.stats();
            assertThat(s.shedNeverCompleted()).isPositive();
            assertThat(stalled.closedByServer()).as("stalled connections closed by the server")
                    .isEqualTo((int) s.shedNeverCompleted());
            assertThat(s.openConnections()).isLessThanOrEqualTo(100);
        }
    }

    @Test
    void shouldShedTheHostWithTheMostConnectionsFirst() throws Exception {
        server = Orbs.irmi(TransportConfig.MAX_SERVER_CONNECTIONS, "100");
        String ior = Orbs.serve(server, new EchoServant());
        IrmiTransport transport = Orbs.transport(server);
        try (StalledSockets many = StalledSockets.open(transport.port(), 70, HOST_A);
             StalledSockets few = StalledSockets.open(transport.port(), 30, HOST_B)) {
            UnsetConnectionLimitsTest.awaitOpen(transport, 100);
            few.awaitOlderThan(GRACE_MILLIS);
            client = Orbs.stock();

            assertThat(EchoHelper.narrow(client.string_to_object(ior)).echoString("newcomer")).isEqualTo("newcomer");
            assertThat(few.closedByServer()).as("the host with fewer connections keeps them").isZero();
            assertThat(many.closedByServer()).isEqualTo((int) transport.stats().shedNeverCompleted()).isPositive();
        }
    }

    @Test
    void shouldShedAnIdleConnectionForANewcomerOnceItIdledShedIdleAfter() throws Exception {
        server = Orbs.irmi(TransportConfig.MAX_SERVER_CONNECTIONS, "1", "irmi.transport.shed_idle_after_ms", "0");
        String ior = Orbs.serve(server, new EchoServant());
        IrmiTransport transport = Orbs.transport(server);
        client = Orbs.stock();
        Echo first = EchoHelper.narrow(client.string_to_object(ior));
        assertThat(first.echoString("first")).isEqualTo("first");
        other = Orbs.stock("jacorb.retries", "0");

        assertThat(EchoHelper.narrow(other.string_to_object(ior)).echoString("second")).isEqualTo("second");
        assertThat(transport.stats().shedIdle()).isEqualTo(1);
        assertThat(transport.stats().refusedConnections()).isZero();
        assertThat(first.echoString("first again")).as("its client reconnects after CloseConnection").isEqualTo("first again");
    }

    @Test
    void shouldServeANewClientWhenStalledConnectionsTakeEveryFileDescriptor() throws Exception {
        try (ServerProcess process = ServerProcess.start("irmi", 400, "-Xmx128m")) {
            String ior = process.ior();
            // One client served and gone first: the server has loaded the classes of a connection's
            // whole life (with every descriptor taken, no class file could be opened from target/classes).
            ORB early = Orbs.stock();
            try {
                assertThat(EchoHelper.narrow(early.string_to_object(ior)).echoString("early")).isEqualTo("early");
            } finally {
                Orbs.destroy(early);
            }
            try (StalledSockets stalled = StalledSockets.open(process.port, 500, HOST_A)) {
                assertServedOutOfDescriptors(process, ior, stalled);
            }
        }
    }

    private void assertServedOutOfDescriptors(ServerProcess process, String ior, StalledSockets stalled) throws Exception {
        long failures = 0;
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (failures == 0 && System.nanoTime() < deadline) { // the server ran out of descriptors
            failures = process.stats().getOrDefault("acceptFailures", 0L);
        }
        assertThat(failures).as("accepts failed; output:\n" + process.output()).isPositive();
        stalled.awaitOlderThan(GRACE_MILLIS);
        client = Orbs.stock("jacorb.connection.client.pending_reply_timeout", "20000");

        String reply;
        try {
            reply = EchoHelper.narrow(client.string_to_object(ior)).echoString("newcomer");
        } catch (RuntimeException e) {
            throw new AssertionError("the newcomer failed (" + e + "); " + process.stats() + "; output:\n"
                    + process.output(), e);
        }
        assertThat(reply).isEqualTo("newcomer");
        Map<String, Long> s = process.stats();
        assertThat(s.get("shedNeverCompleted")).as("stalled connections shed; " + s).isPositive();
        assertThat(process.alive()).isTrue();
    }

    /**
     * 10,000 stalled connections with default settings: nothing but memory and file descriptors
     * limits them. The server gets its own JVM (with {@code ulimit -n} raised where the hard limit
     * allows); this JVM holds the 10,000 client sockets and needs the descriptors for them: where it
     * has fewer, the test fails and says so: a skip would check nothing.
     */
    @Test
    void shouldServeANewClientBeside10000StalledConnectionsWithDefaultSettings() throws Exception {
        int stalledCount = 10_000;
        long myLimit = ((com.sun.management.UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getMaxFileDescriptorCount();
        assertThat(myLimit).as("file descriptors of the test JVM (ulimit -n): 10,000 stalled sockets and the JVM's own "
                + "need at least 10,500; raise ulimit -n (this machine's kind gives 20,000)").isGreaterThanOrEqualTo(10_500L);
        try (ServerProcess process = ServerProcess.start("irmi", 10_500, "-Xmx256m");
             StalledSockets stalled = StalledSockets.open(portAfterIor(process), stalledCount, HOST_A)) {
            String ior = iors.get(process);
            long open = 0;
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (open < stalledCount && System.nanoTime() < deadline) {
                open = process.stats().getOrDefault("open", 0L);
            }
            assertThat(open).as("the server holds every stalled connection; output:\n" + process.output())
                    .isEqualTo(stalledCount);
            client = Orbs.stock("jacorb.retries", "0", "jacorb.connection.client.pending_reply_timeout", "20000");

            assertThat(EchoHelper.narrow(client.string_to_object(ior)).echoString("newcomer")).isEqualTo("newcomer");
            Map<String, Long> s = process.stats();
            assertThat(s.get("open")).isEqualTo(stalledCount + 1L);
            assertThat(s.get("refusedConnections") + s.get("shedNeverCompleted") + s.get("acceptFailures")).as("no limit reached; " + s)
                    .isZero();
        }
    }

    private final Map<ServerProcess, String> iors = new java.util.HashMap<>();

    /** Waits for the server's IOR (it listens from then on), keeps it, and returns its port. */
    private int portAfterIor(ServerProcess process) throws InterruptedException {
        iors.put(process, process.ior());
        return process.port;
    }

    private static InetAddress address(String a) {
        try {
            return InetAddress.getByName(a);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
