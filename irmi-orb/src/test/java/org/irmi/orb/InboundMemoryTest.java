package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import irmitest.Echo;
import irmitest.EchoHelper;

import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

/**
 * The transport-wide inbound budget against clients that try to take the server's memory, with a
 * well-behaved client beside them that must keep getting its answers.
 */
class InboundMemoryTest {

    private static final long MIB = 1024 * 1024;

    /** A GIOP 1.2 Request header (big-endian) declaring {@code body} bytes. */
    private static byte[] header(int body) {
        return new byte[] {'G', 'I', 'O', 'P', 1, 2, 0, 0, (byte) (body >>> 24), (byte) (body >>> 16),
                (byte) (body >>> 8), (byte) body};
    }

    @Test
    void shouldCloseTheLargestHoldersWhenPartialMessagesExceedTheBudget() throws Exception {
        long limit = 4 * MIB;
        ORB server = Orbs.irmi("irmi.transport.max_inbound_bytes", String.valueOf(limit));
        ORB client = Orbs.irmi();
        List<Socket> holders = new ArrayList<>();
        try {
            String ior = Orbs.serve(server, new EchoServant());
            Echo echo = EchoHelper.narrow(client.string_to_object(ior));
            IrmiTransport t = Orbs.transport(server);
            long maxHeld = 0;
            // 60 connections each declare 1 MiB and send 100 KiB of it: together about 7.5 MiB held
            for (int i = 0; i < 60; i++) {
                Socket s = new Socket();
                s.connect(new InetSocketAddress("127.0.0.1", t.port()), 5000);
                holders.add(s);
                OutputStream out = s.getOutputStream();
                out.write(header((int) MIB));
                out.write(new byte[100 * 1024]);
                out.flush();
                maxHeld = Math.max(maxHeld, t.stats().inboundHeldBytes());
                assertThat(echo.echoString("beside holder " + i)).isEqualTo("beside holder " + i);
                maxHeld = Math.max(maxHeld, t.stats().inboundHeldBytes());
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (t.stats().budgetCloses() == 0 && System.nanoTime() < deadline) {
                assertThat(echo.echoString("waiting")).isEqualTo("waiting");
                maxHeld = Math.max(maxHeld, t.stats().inboundHeldBytes());
            }
            TransportStats s = t.stats();
            assertThat(s.inboundLimitBytes()).isEqualTo(limit);
            assertThat(s.budgetCloses()).as("connections closed for the budget").isPositive();
            // one read turn (256 KiB) and one chunk (1 MiB) past the limit at most, before the closes
            assertThat(maxHeld).as("most held bytes seen").isLessThanOrEqualTo(limit + 256 * 1024 + MIB);
            assertThat(s.inboundHeldBytes()).isLessThanOrEqualTo(limit);
            for (int i = 0; i < 20; i++) {
                assertThat(echo.echoString("after " + i)).isEqualTo("after " + i);
            }
        } finally {
            for (Socket s : holders) {
                s.close();
            }
            Orbs.destroy(client, server);
        }
    }

    @Test
    void shouldPauseAConnectionThatDoesNotReadItsRepliesAndReleaseItsBytesAtClose() throws Exception {
        long limit = 4 * MIB;
        ORB server = Orbs.irmi("irmi.transport.max_inbound_bytes", String.valueOf(limit),
                "irmi.transport.max_outbound_bytes", String.valueOf(64 * MIB));
        ORB client = Orbs.irmi();
        try {
            String ior = Orbs.serve(server, new EchoServant());
            Echo echo = EchoHelper.narrow(client.string_to_object(ior));
            IrmiTransport t = Orbs.transport(server);
            byte[] key = GiopClient.objectKey(client.string_to_object(ior));
            GiopClient reader = new GiopClient(t.port());
            reader.socket.setReceiveBufferSize(4096);
            byte[] args = GiopClient.bytesArg(new byte[256 * 1024]);
            Thread sender = new Thread(() -> {
                try {
                    for (int i = 0; i < 200; i++) {
                        reader.send(GiopClient.request12(i, key, "echoBytes", args, true));
                    }
                } catch (IOException closed) {
                    // closed by the test
                }
            }, "never-reading-sender");
            sender.setDaemon(true);
            sender.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (t.stats().budgetPauses() == 0 && System.nanoTime() < deadline) {
                assertThat(echo.echoString("beside")).isEqualTo("beside");
            }
            assertThat(t.stats().budgetPauses()).as("the never-reading connection paused by the budget").isPositive();
            assertThat(t.stats().outboundOverflowCloses()).isZero();
            assertThat(echo.echoString("while paused")).isEqualTo("while paused");
            reader.close();
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (t.stats().inboundHeldBytes() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(t.stats().inboundHeldBytes()).as("unsent replies returned to the budget at close").isZero();
        } finally {
            Orbs.destroy(client, server);
        }
    }

    /**
     * The heap bomb of issue 11 against a server with a 64 MiB heap in a JVM of its own: 20
     * connections declare 64 MiB bodies and send one byte, 4 more stream 48 MiB bodies for real.
     * The well-behaved client gets every answer, the server does not run out of memory, and the
     * streamers are paused by the default budget (a quarter of the heap).
     */
    @Test
    void shouldSurviveTheHeapBombWithA64MiBHeap() throws Exception {
        String kind = System.getProperty("irmi.heapbomb.server", "irmi");
        ORB client = null;
        List<Socket> attackers = new ArrayList<>();
        List<Thread> streamers = new ArrayList<>();
        try (ServerProcess server = ServerProcess.start(kind, 0, "-Xmx64m", "-XX:+UseSerialGC")) {
            try {
                String ior = server.ior();
                client = Orbs.irmi("jacorb.connection.client.pending_reply_timeout", "30000");
                Echo echo = EchoHelper.narrow(client.string_to_object(ior));
                assertThat(echo.echoString("before")).isEqualTo("before");
                int declared = (int) (64 * MIB) - 12; // the default maximum message size, header included
                for (int i = 0; i < 20; i++) {
                    Socket s = new Socket();
                    s.connect(new InetSocketAddress("127.0.0.1", server.port), 5000);
                    attackers.add(s);
                    OutputStream out = s.getOutputStream();
                    out.write(header(declared));
                    out.write(42);
                    out.flush();
                }
                for (int i = 0; i < 4; i++) {
                    Socket s = new Socket();
                    s.connect(new InetSocketAddress("127.0.0.1", server.port), 5000);
                    attackers.add(s);
                    Thread streamer = new Thread(() -> stream(s, (int) (48 * MIB)), "streamer-" + i);
                    streamer.setDaemon(true);
                    streamer.start();
                    streamers.add(streamer);
                }
                for (int i = 0; i < 200; i++) {
                    assertThat(echo.echoString("during " + i)).isEqualTo("during " + i);
                    if (i % 20 == 0) {
                        byte[] b = new byte[64 * 1024];
                        b[i] = 7;
                        assertThat(echo.echoBytes(b)).isEqualTo(b);
                    }
                }
                Map<String, Long> stats = Map.of();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (System.nanoTime() < deadline) {
                    stats = server.stats();
                    if (stats.getOrDefault("oversize", 0L) >= 24) {
                        break;
                    }
                    assertThat(echo.echoString("waiting")).isEqualTo("waiting");
                }
                System.out.println("heap bomb against " + kind + " with -Xmx64m: " + stats);
                assertThat(server.alive()).as("server JVM alive; its output:\n" + server.output()).isTrue();
                assertThat(server.output()).doesNotContain("OutOfMemoryError");
                assertThat(stats.get("limit")).as("default budget: a quarter of the max heap")
                        .isEqualTo(Math.max(8 * MIB, stats.get("maxHeap") / 4));
                // 64 and 48 MiB could never be held in a budget of 16 MiB: refused at their headers
                assertThat(stats.get("oversize")).as("bombs and streamers refused at their headers; " + stats)
                        .isGreaterThanOrEqualTo(24);
                assertThat(stats.get("held")).isLessThanOrEqualTo(stats.get("limit"));
                assertThat(echo.echoString("after")).isEqualTo("after");
            } finally {
                for (Socket s : attackers) {
                    s.close();
                }
                if (client != null) {
                    Orbs.destroy(client);
                }
            }
        }
    }

    /**
     * JacORB's bug619 case: a request larger than the server could ever hold is answered with
     * {@code NO_MEMORY}, completed NO, and the same connection then serves the next request, as on
     * stock JacORB. Not a byte of the refused body is held.
     */
    @Test
    void shouldAnswerNoMemoryToARequestLargerThanTheBudgetAndKeepServingTheConnection() throws Exception {
        long limit = 4 * MIB; // the largest message it could hold is 3 MiB (the high-water mark)
        ORB server = Orbs.irmi("irmi.transport.max_inbound_bytes", String.valueOf(limit));
        ORB client = Orbs.stock();
        try {
            String ior = Orbs.serve(server, new EchoServant());
            IrmiTransport t = Orbs.transport(server);
            TransportStats before = t.stats();
            // on one raw socket: refused, then served, then refused again
            try (GiopClient c = new GiopClient(t.port())) {
                byte[] key = GiopClient.objectKey(client.string_to_object(ior));
                for (int round = 0; round < 2; round++) {
                    c.send(GiopClient.request12(10 + round, key, "echoBytes", GiopClient.bytesArg(new byte[5 * (int) MIB]), true));
                    byte[] refused = c.readMessage();
                    assertThat(GiopClient.requestIdOfReply(refused)).isEqualTo(10 + round);
                    assertThat(GiopClient.replyStatus(refused)).as("SYSTEM_EXCEPTION").isEqualTo(2);
                    assertThat(GiopClient.exceptionId(refused)).isEqualTo("IDL:omg.org/CORBA/NO_MEMORY:1.0");
                    c.send(GiopClient.request12(20 + round, key, "echoString", GiopClient.stringArg("next " + round), true));
                    byte[] next = c.readMessage();
                    assertThat(GiopClient.requestIdOfReply(next)).isEqualTo(20 + round);
                    assertThat(GiopClient.stringResult(next)).isEqualTo("next " + round);
                    assertThat(t.stats().inboundHeldBytes()).as("nothing of the refused body held").isZero();
                }
            }
            // a stock JacORB client sees NO_MEMORY (minor REQUEST_OVER_BUDGET, completed NO) and goes on
            Echo echo = EchoHelper.narrow(client.string_to_object(ior));
            byte[] small = new byte[(int) MIB]; // request and reply held at once: 2 MiB of the 4
            small[7] = 7;
            assertThat(echo.echoBytes(small)).isEqualTo(small);
            org.omg.CORBA.NO_MEMORY e = org.junit.jupiter.api.Assertions.assertThrows(org.omg.CORBA.NO_MEMORY.class,
                    () -> echo.echoBytes(new byte[5 * (int) MIB]));
            assertThat(e.minor).isEqualTo(org.irmi.isolation.MinorCodes.REQUEST_OVER_BUDGET);
            assertThat(e.completed).isEqualTo(org.omg.CORBA.CompletionStatus.COMPLETED_NO);
            assertThat(echo.echoString("after")).isEqualTo("after");
            TransportStats after = t.stats();
            assertThat(after.oversizeRefused() - before.oversizeRefused()).isEqualTo(3);
            assertThat(after.messageErrorsSent()).isEqualTo(before.messageErrorsSent());
            assertThat(after.budgetCloses()).as("the server closed nothing").isEqualTo(before.budgetCloses());
            assertThat(after.stallCloses()).isEqualTo(before.stallCloses());
            assertThat(after.inboundHeldBytes()).isZero();
        } finally {
            Orbs.destroy(client, server);
        }
    }

    private static void stream(Socket s, int body) {
        try {
            OutputStream out = s.getOutputStream();
            out.write(header(body));
            byte[] chunk = new byte[64 * 1024];
            for (int sent = 0; sent < body; sent += chunk.length) {
                out.write(chunk, 0, Math.min(chunk.length, body - sent));
            }
        } catch (IOException closed) {
            // closed by the server (budget) or by the test at the end
        }
    }
}
