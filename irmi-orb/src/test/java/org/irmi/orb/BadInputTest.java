package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

import irmitest.Echo;
import irmitest.EchoHelper;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

/**
 * Malformed and hostile input against a real I-RMI server: each case is answered with a
 * MessageError or a closed connection while a well-behaved client keeps its round trips, no
 * thread leaks and the heap does not grow.
 */
class BadInputTest {

    private static ORB server;
    private static ORB goodClient;
    private static Echo echo;
    private static byte[] key;
    private static int port;
    private static int threadsAtStart;

    @BeforeAll
    static void start() {
        server = Orbs.irmi("irmi.transport.max_message_bytes", String.valueOf(16 * 1024 * 1024),
                "irmi.transport.stall_timeout_ms", "1000",
                "irmi.transport.sweep_interval_ms", "50",
                "irmi.transport.max_outbound_bytes", String.valueOf(1024 * 1024));
        String ior = Orbs.serve(server, new EchoServant());
        goodClient = Orbs.irmi();
        echo = EchoHelper.narrow(goodClient.string_to_object(ior));
        key = GiopClient.objectKey(goodClient.string_to_object(ior));
        port = Orbs.transport(server).port();
        echo.echoString("warm-up");
        threadsAtStart = Thread.activeCount();
    }

    @AfterAll
    static void stop() {
        Orbs.destroy(goodClient, server);
    }

    @AfterEach
    void wellBehavedClientStillWorks() {
        for (int i = 0; i < 20; i++) {
            assertThat(echo.echoString("still fine " + i)).isEqualTo("still fine " + i);
        }
        assertThat(Threads.named(IrmiTransport.READER_THREAD_NAME)).isEqualTo(1);
        assertThat(Thread.activeCount()).isLessThanOrEqualTo(threadsAtStart + 4);
    }

    private static TransportStats stats() {
        return Orbs.transport(server).stats();
    }

    @Test
    void shouldRefuseWhenClientSendsGarbage() throws IOException {
        try (GiopClient c = new GiopClient(port)) {
            c.send("this is not GIOP at all, just some text".getBytes());
            assertThat(c.refused()).isTrue();
        }
    }

    @Test
    void shouldAnswerMessageErrorWhenMagicIsWrong() throws IOException {
        long before = stats().messageErrorsSent();
        try (GiopClient c = new GiopClient(port)) {
            c.send(new byte[] {'G', 'I', 'O', 'X', 1, 2, 0, 0, 0, 0, 0, 0});
            byte[] m = c.readMessage();
            assertThat(GiopClient.type(m)).isEqualTo(6);
            assertThat(c.refused()).isTrue();
        }
        assertThat(stats().messageErrorsSent()).isGreaterThan(before);
    }

    @Test
    void shouldAnswerMessageErrorWhenVersionIsUnknown() throws IOException {
        try (GiopClient c = new GiopClient(port)) {
            c.send(new byte[] {'G', 'I', 'O', 'P', 1, 7, 0, 0, 0, 0, 0, 0});
            assertThat(GiopClient.type(c.readMessage())).isEqualTo(6);
        }
        try (GiopClient c = new GiopClient(port)) {
            c.send(new byte[] {'G', 'I', 'O', 'P', 2, 0, 0, 0, 0, 0, 0, 0});
            assertThat(GiopClient.type(c.readMessage())).isEqualTo(6);
        }
    }

    @Test
    void shouldCloseWhenHeaderIsTruncated() throws IOException {
        try (GiopClient c = new GiopClient(port)) {
            c.send(new byte[] {'G', 'I', 'O', 'P', 1});
            c.socket.shutdownOutput();
            assertThat(c.refused()).isTrue();
        }
    }

    @Test
    void shouldRefuseWithoutAllocatingWhenDeclaredSizeIsTwoGigabytes() throws IOException {
        long before = stats().oversizeRefused();
        long heapBefore = usedHeap();
        try (GiopClient c = new GiopClient(port)) {
            c.send(new byte[] {'G', 'I', 'O', 'P', 1, 2, 0, 0, (byte) 0x80, 0, 0, 0});
            assertThat(GiopClient.type(c.readMessage())).isEqualTo(6);
            assertThat(c.refused()).isTrue();
        }
        assertThat(stats().oversizeRefused()).isEqualTo(before + 1);
        assertThat(usedHeap() - heapBefore).isLessThan(64L * 1024 * 1024);
    }

    @Test
    void shouldAnswerMessageErrorWhenFragmentHasUnknownRequestId() throws IOException {
        try (GiopClient c = new GiopClient(port)) {
            GiopClient.Cdr f = new GiopClient.Cdr();
            f.header(7, 2, 0);
            f.ulong(999_999);
            f.raw(new byte[16]);
            c.send(f.finish());
            assertThat(GiopClient.type(c.readMessage())).isEqualTo(6);
        }
    }

    @Test
    void shouldRefuseWhenFragmentsNeverEnd() throws IOException {
        long before = stats().oversizeRefused();
        try (GiopClient c = new GiopClient(port)) {
            byte[] req = GiopClient.request12(5, key, "echoBytes", GiopClient.bytesArg(new byte[64]), true);
            req[6] = 2; // more fragments follow
            c.send(req);
            byte[] chunk = new byte[256 * 1024];
            boolean refused = false;
            // 16 MB is the configured maximum: at most ~70 fragments of 256 KB get through.
            for (int i = 0; i < 200 && !refused; i++) {
                GiopClient.Cdr f = new GiopClient.Cdr();
                f.header(7, 2, 2);
                f.ulong(5);
                f.raw(chunk);
                try {
                    c.send(f.finish());
                } catch (IOException closed) {
                    refused = true;
                }
            }
            assertThat(refused || c.refused()).isTrue();
        }
        assertThat(stats().oversizeRefused()).isGreaterThan(before);
    }

    @Test
    void shouldCloseWhenFragmentsStopArriving() throws IOException {
        long before = stats().stallCloses();
        try (GiopClient c = new GiopClient(port)) {
            byte[] req = GiopClient.request12(6, key, "echoString", GiopClient.stringArg("abc"), true);
            req[6] = 2;
            c.send(req);
            c.socket.setSoTimeout(3000);
            assertThat(c.refused()).isTrue();
        }
        assertThat(stats().stallCloses()).isGreaterThan(before);
    }

    @Test
    void shouldCloseWhenClientSendsHalfAMessageAndStalls() throws IOException {
        long before = stats().stallCloses();
        try (GiopClient c = new GiopClient(port)) {
            byte[] req = GiopClient.request12(7, key, "echoString", GiopClient.stringArg("half"), true);
            byte[] half = new byte[req.length / 2];
            System.arraycopy(req, 0, half, 0, half.length);
            c.send(half);
            c.socket.setSoTimeout(3000);
            assertThat(c.refused()).isTrue();
        }
        assertThat(stats().stallCloses()).isGreaterThan(before);
    }

    @Test
    void shouldStayHealthyWhenTenThousandConnectionsAreOpenedAndDropped() throws IOException {
        System.gc();
        long heapBefore = usedHeap();
        for (int batch = 0; batch < 20; batch++) {
            List<Socket> open = new ArrayList<>(500);
            for (int i = 0; i < 500; i++) {
                Socket s = new Socket();
                s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
                open.add(s);
            }
            for (Socket s : open) {
                s.setSoLinger(true, 0);
                s.close();
            }
        }
        assertThat(echo.echoString("after 10k")).isEqualTo("after 10k");
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (stats().openConnections() > 1 && System.nanoTime() < deadline) {
            echo.echoString("wait");
        }
        assertThat(stats().openConnections()).isEqualTo(1);
        System.gc();
        assertThat(usedHeap() - heapBefore).isLessThan(32L * 1024 * 1024);
    }

    @Test
    void shouldCloseOnlyThatConnectionWhenClientNeverReadsReplies() throws IOException {
        long before = stats().outboundOverflowCloses();
        try (GiopClient c = new GiopClient(port)) {
            c.socket.setReceiveBufferSize(4096);
            byte[] args = GiopClient.bytesArg(new byte[256 * 1024]);
            boolean closed = false;
            for (int i = 0; i < 400 && !closed; i++) {
                try {
                    c.send(GiopClient.request12(100 + i, key, "echoBytes", args, true));
                } catch (IOException e) {
                    closed = true;
                }
                if (stats().outboundOverflowCloses() > before) {
                    closed = true;
                }
            }
            assertThat(closed).isTrue();
        }
        assertThat(stats().outboundOverflowCloses()).isGreaterThan(before);
    }

    @Test
    void shouldAnswerMessageErrorWhenRequestHeaderIsMalformed() throws IOException {
        long before = stats().messageErrorsSent();
        try (GiopClient c = new GiopClient(port)) {
            GiopClient.Cdr m = new GiopClient.Cdr();
            m.header(0, 2, 0);
            m.ulong(1);
            m.octet(3);
            m.raw(new byte[3]);
            m.ushort(0);
            m.ulong(1_000_000); // object key length far beyond the message
            m.raw(new byte[8]);
            c.send(m.finish());
            assertThat(GiopClient.type(c.readMessage())).isEqualTo(6);
            assertThat(c.refused()).isTrue();
        }
        assertThat(stats().messageErrorsSent()).isGreaterThan(before);
    }

    @Test
    void shouldCloseWhenClientSendsAReply() throws IOException {
        try (GiopClient c = new GiopClient(port)) {
            GiopClient.Cdr r = new GiopClient.Cdr();
            r.header(1, 2, 0);
            r.ulong(1);
            r.ulong(0);
            r.ulong(0);
            c.send(r.finish());
            assertThat(c.refused()).isTrue();
        }
    }

    @Test
    void shouldHoldOnlyWhatArrivedWhenTwentyConnectionsDeclareHugeBodiesAndSendOneByte() throws Exception {
        long readBefore = stats().bytesRead();
        int declared = 16 * 1024 * 1024 - 12; // the configured maximum
        List<GiopClient> bombs = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                GiopClient c = new GiopClient(port);
                bombs.add(c);
                c.send(new byte[] {'G', 'I', 'O', 'P', 1, 2, 0, 0, (byte) (declared >>> 24), (byte) (declared >>> 16),
                        (byte) (declared >>> 8), (byte) declared, 42});
            }
            long firstChunks = 20L * 16 * 1024; // each bomb holds the first chunk of its message (MessageBuffer)
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (stats().inboundHeldBytes() < firstChunks && System.nanoTime() < deadline) {
                echo.echoString("waiting for the bombs to be read");
            }
            assertThat(stats().bytesRead() - readBefore).as("bytes of the 20 bombs read").isGreaterThanOrEqualTo(20 * 13);
            assertThat(stats().inboundHeldBytes()).isGreaterThanOrEqualTo(firstChunks);
            // 20 declared bodies of 16 MiB would be 320 MiB; what is held grows with what arrived
            assertThat(stats().inboundHeldBytes()).isLessThanOrEqualTo(20L * 16 * 1024 + 64 * 1024);
            assertThat(echo.echoString("beside the bombs")).isEqualTo("beside the bombs");
        } finally {
            for (GiopClient c : bombs) {
                c.close();
            }
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (stats().inboundHeldBytes() > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(stats().inboundHeldBytes()).as("held bytes returned to the budget at close").isZero();
    }

    @Test
    void shouldCloseWhenOneByteTricklesInsteadOfProgress() throws IOException {
        long before = stats().stallCloses();
        try (GiopClient c = new GiopClient(port)) {
            // declares 100 KB of body, then sends one byte every 100 ms: before, every byte reset the stall clock
            c.send(new byte[] {'G', 'I', 'O', 'P', 1, 2, 0, 0, 0, 1, (byte) 0x86, (byte) 0xa0});
            c.socket.setSoTimeout(100);
            assertThat(closedWhileTrickling(c, new byte[] {1}, 100)).isTrue();
        }
        assertThat(stats().stallCloses()).isGreaterThan(before);
    }

    @Test
    void shouldCloseWhenOnlyEmptyFragmentsArrive() throws IOException {
        long before = stats().stallCloses();
        try (GiopClient c = new GiopClient(port)) {
            byte[] req = GiopClient.request12(8, key, "echoString", GiopClient.stringArg("abc"), true);
            req[6] = 2; // more fragments follow
            c.send(req);
            GiopClient.Cdr f = new GiopClient.Cdr();
            f.header(7, 2, 2);
            f.ulong(8); // request id, no body: no progress
            c.socket.setSoTimeout(100);
            assertThat(closedWhileTrickling(c, f.finish(), 100)).isTrue();
        }
        assertThat(stats().stallCloses()).isGreaterThan(before);
    }

    /** Sends {@code piece} about every 100 ms for up to 100 times; true once the server closed (the stall timeout is 1 s). */
    private static boolean closedWhileTrickling(GiopClient c, byte[] piece, int times) {
        for (int i = 0; i < times; i++) {
            try {
                c.send(piece);
                if (c.input().read() < 0) {
                    return true;
                }
            } catch (java.net.SocketTimeoutException stillOpen) {
                continue;
            } catch (IOException closed) {
                return true;
            }
        }
        return false;
    }

    @Test
    void shouldAnswerMessageErrorWhenServiceContextCountIsTwoToThe31() throws IOException {
        GiopClient.Cdr m = new GiopClient.Cdr();
        m.header(0, 2, 0);
        m.ulong(1);
        m.octet(3);
        m.raw(new byte[3]);
        m.ushort(0);
        m.octets(key);
        m.string("echoString");
        m.ulong(0x80000000); // service contexts
        m.raw(new byte[16]);
        assertMessageError(m.finish());
    }

    @Test
    void shouldAnswerMessageErrorWhenOperationNameLengthIsTwoToThe31() throws IOException {
        GiopClient.Cdr m = new GiopClient.Cdr();
        m.header(0, 2, 0);
        m.ulong(1);
        m.octet(3);
        m.raw(new byte[3]);
        m.ushort(0);
        m.octets(key);
        m.ulong(0x80000000); // operation name length
        m.raw("echoString".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        m.raw(new byte[16]);
        assertMessageError(m.finish());
    }

    private static void assertMessageError(byte[] request) throws IOException {
        long before = stats().messageErrorsSent();
        try (GiopClient c = new GiopClient(port)) {
            c.send(request);
            assertThat(GiopClient.type(c.readMessage())).as("a MessageError, not silence").isEqualTo(6);
            assertThat(c.refused()).isTrue();
        }
        assertThat(stats().messageErrorsSent()).isGreaterThan(before);
    }

    private static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    @SuppressWarnings("unused")
    private static void drain(InputStream in) throws IOException {
        while (in.available() > 0) {
            in.read();
        }
    }
}
