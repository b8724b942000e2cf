package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import irmitest.Echo;
import irmitest.EchoHelper;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

/** What JacORB's connection manager did, done by the selector transport. */
class ConnectionLifecycleTest {

    private ORB server;
    private ORB client;

    @AfterEach
    void tearDown() {
        Orbs.destroy(client, server);
    }

    private byte[] serveEcho(String... props) {
        server = Orbs.irmi(props);
        client = Orbs.irmi();
        String ior = Orbs.serve(server, new EchoServant());
        return GiopClient.objectKey(client.string_to_object(ior));
    }

    @Test
    void shouldAnswerLocateRequestWithObjectHere() throws IOException {
        byte[] key = serveEcho();
        try (GiopClient c = new GiopClient(Orbs.transport(server).port())) {
            GiopClient.Cdr m = new GiopClient.Cdr();
            m.header(3, 2, 0);
            m.ulong(9);
            m.ushort(0);
            m.octets(key);
            c.send(m.finish());
            byte[] reply = c.readMessage();
            assertThat(GiopClient.type(reply)).isEqualTo(4);
            assertThat(GiopClient.readInt(reply, 12)).isEqualTo(9);
            assertThat(GiopClient.readInt(reply, 16)).isEqualTo(1); // OBJECT_HERE
        }
    }

    @Test
    void shouldDropQueuedRequestWhenClientCancelsIt() throws IOException {
        // One POA thread, a POA queue of one that blocks when full, one dispatch worker: request 1
        // runs, 2 waits in the POA queue, 3 holds the worker, so 4 waits in the hand-off queue.
        // The connection's fair share of requests in flight is raised above 5, so that the cancel is
        // read while request 4 waits (at its share, the connection would not be read until 1 ends).
        // The direct path is off: this queueing is the POA's (on it, the worker runs request 1 itself).
        byte[] key = serveEcho("irmi.transport.direct_dispatch", "false",
                "irmi.transport.dispatch_threads", "1", "jacorb.poa.thread_pool_min", "1",
                "jacorb.poa.thread_pool_max", "1", "jacorb.poa.queue_max", "1", "jacorb.poa.queue_min", "1",
                "jacorb.poa.queue_wait", "on", "irmi.transport.max_requests_in_flight", "100");
        try (GiopClient c = new GiopClient(Orbs.transport(server).port())) {
            c.socket.setSoTimeout(10_000);
            // 2 s: the cancel must arrive while request 4 still waits, even on a machine so loaded
            // that a thread can stall for half a second (500 ms proved too short there).
            c.send(GiopClient.request12(1, key, "sleepMillis", new byte[] {0, 0, 7, (byte) 0xd0}, true));
            for (int id = 2; id <= 4; id++) {
                c.send(GiopClient.request12(id, key, "sleepMillis", new byte[4], true));
            }
            GiopClient.Cdr cancel = new GiopClient.Cdr();
            cancel.header(2, 2, 0);
            cancel.ulong(4);
            c.send(cancel.finish());
            c.send(GiopClient.request12(5, key, "sleepMillis", new byte[4], true));
            List<Integer> ids = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                ids.add(GiopClient.requestIdOfReply(c.readMessage()));
            }
            assertThat(ids).containsExactly(1, 2, 3, 5);
        }
        assertThat(Orbs.transport(server).stats().cancelledRequests()).isEqualTo(1);
    }

    @Test
    void shouldRefuseConnectionsBeyondMaximum() throws IOException {
        byte[] key = serveEcho("jacorb.connection.max_server_connections", "2");
        int port = Orbs.transport(server).port();
        try (GiopClient a = new GiopClient(port); GiopClient b = new GiopClient(port)) {
            // each served just now (a whole message), so neither may be shed for the newcomer (ConnectionShedding)
            a.send(GiopClient.request12(1, key, "sleepMillis", new byte[4], true));
            b.send(GiopClient.request12(1, key, "sleepMillis", new byte[4], true));
            assertThat(GiopClient.replyStatus(a.readMessage())).isZero();
            assertThat(GiopClient.replyStatus(b.readMessage())).isZero();
            try (GiopClient c = new GiopClient(port)) {
                assertThat(c.refused()).isTrue();
            }
            assertThat(Orbs.transport(server).stats().refusedConnections()).isEqualTo(1);
        }
    }

    @Test
    void shouldSendCloseConnectionWhenConnectionIsIdle() throws IOException {
        serveEcho("irmi.transport.idle_timeout_ms", "200", "irmi.transport.sweep_interval_ms", "50");
        try (GiopClient c = new GiopClient(Orbs.transport(server).port())) {
            c.socket.setSoTimeout(5000);
            byte[] m = c.readMessage();
            assertThat(GiopClient.type(m)).isEqualTo(5);
            assertThat(c.refused()).isTrue();
        }
        assertThat(Orbs.transport(server).stats().idleCloses()).isEqualTo(1);
    }

    @Test
    void shouldReconnectTransparentlyWhenJacorbClientConnectionWasClosedIdle() throws Exception {
        server = Orbs.irmi("irmi.transport.idle_timeout_ms", "200", "irmi.transport.sweep_interval_ms", "50");
        client = Orbs.irmi();
        Echo echo = EchoHelper.narrow(client.string_to_object(Orbs.serve(server, new EchoServant())));
        assertThat(echo.echoString("one")).isEqualTo("one");
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (Orbs.transport(server).stats().idleCloses() == 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(Orbs.transport(server).stats().idleCloses()).isEqualTo(1);
        assertThat(echo.echoString("two")).isEqualTo("two");
    }

    @Test
    void shouldCloseEveryChannelAndStopThreadsWhenOrbShutsDown() throws IOException {
        serveEcho();
        int port = Orbs.transport(server).port();
        long readersBefore = Threads.named(IrmiTransport.READER_THREAD_NAME);
        try (GiopClient c = new GiopClient(port)) {
            server.shutdown(true);
            server.destroy();
            server = null;
            c.socket.setSoTimeout(5000);
            boolean closed;
            try {
                byte[] m = c.readMessage(); // CloseConnection first, then EOF
                closed = GiopClient.type(m) == 5 && c.refused();
            } catch (EOFException | java.net.SocketException e) {
                // EOF; or a reset: the connection was still in the listen backlog, not yet accepted,
                // when the server socket closed
                closed = true;
            }
            assertThat(closed).isTrue();
        }
        assertThat(Threads.named(IrmiTransport.READER_THREAD_NAME)).isEqualTo(readersBefore - 1);
        assertThat(Threads.namedStartingWith("irmi-dispatch")).isZero();
        assertThat(canConnect(port)).isFalse();
    }

    private static boolean canConnect(int port) {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
