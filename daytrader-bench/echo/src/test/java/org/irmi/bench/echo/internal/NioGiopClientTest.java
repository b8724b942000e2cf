package org.irmi.bench.echo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

import org.irmi.bench.echo.EchoServer;
import org.irmi.bench.echo.OrbVariants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The NIO GIOP client against real echo servers (child JVMs) and against a server that answers wrongly. */
class NioGiopClientTest {

    @Test
    void shouldCallEveryConnectionWithoutErrorWhenServerIsIrmi(@TempDir Path dir) throws Exception {
        assertCleanRun("irmi", dir);
    }

    @Test
    void shouldCallEveryConnectionWithoutErrorWhenServerIsStockJacorb(@TempDir Path dir) throws Exception {
        assertCleanRun("jacorb", dir);
    }

    private static void assertCleanRun(String variant, Path dir) throws Exception {
        ServerProcess s = ServerProcess.start(variant, variant, dir, Duration.ofSeconds(60));
        try (NioGiopClient c = new NioGiopClient(s.ior(), 100)) {
            // A reply counts as a call only when its request id, status and octets are right.
            NioGiopClient.PhaseResult ramp = c.ramp(50, 16, Duration.ofSeconds(5), Duration.ofSeconds(30));
            assertThat(ramp.firstErrors()).isEmpty();
            assertThat(ramp.connected()).isEqualTo(50);
            assertThat(ramp.connectFailures()).isZero();
            assertThat(ramp.calls()).isEqualTo(50);
            assertThat(ramp.errors()).isZero();
            NioGiopClient.PhaseResult loop = c.closedLoop(Duration.ofMillis(500), Duration.ofSeconds(5));
            assertThat(loop.firstErrors()).isEmpty();
            assertThat(loop.errors()).isZero();
            assertThat(loop.calls()).isGreaterThan(50);
            assertThat(loop.connected()).isEqualTo(50);
        } finally {
            s.close();
        }
    }

    /**
     * The first request of each connection negotiates its code sets, as an ORB client's does: without it
     * I-RMI runs none of the connection's calls on its direct path, and the benchmark would measure JacORB's
     * POA path on I-RMI, which no ORB client gets.
     */
    @Test
    void shouldHaveItsCallsRunOnTheDirectPathWhenServerIsIrmi() throws Exception {
        EchoServer server = EchoServer.start(OrbVariants.known().get("irmi"), "127.0.0.1", 0, java.util.Map.of());
        try (NioGiopClient c = new NioGiopClient(IorInfo.parse(server.ior()), 100)) {
            NioGiopClient.PhaseResult ramp = c.ramp(4, 4, Duration.ofSeconds(5), Duration.ofSeconds(30));
            NioGiopClient.PhaseResult loop = c.closedLoop(Duration.ofMillis(300), Duration.ofSeconds(5));
            assertThat(ramp.errors() + loop.errors()).isZero();
            long direct = ((org.irmi.orb.IrmiORB) server.orb()).transport().orElseThrow().stats().directRequests();
            // every call after each connection's first, at least (the first may go JacORB's way)
            assertThat(direct).isGreaterThanOrEqualTo(ramp.calls() + loop.calls() - 4);
        } finally {
            server.close();
        }
    }

    @Test
    void shouldCountReplyWithOtherOctetsAsError() throws Exception {
        try (FakeServer f = new FakeServer(false, true)) {
            NioGiopClient.PhaseResult ramp = f.ramp(5);
            assertThat(ramp.calls()).isZero();
            assertThat(ramp.errors()).isEqualTo(5);
            assertThat(ramp.firstErrors()).contains("reply octets differ from those sent");
        }
    }

    @Test
    void shouldCountReplyToOtherRequestIdAsError() throws Exception {
        try (FakeServer f = new FakeServer(true, false)) {
            NioGiopClient.PhaseResult ramp = f.ramp(5);
            assertThat(ramp.calls()).isZero();
            assertThat(ramp.errors()).isEqualTo(5);
            assertThat(ramp.firstErrors().get(0)).startsWith("reply to request 2, expected 1");
        }
    }

    @Test
    void shouldCountRightReplyAsCallWhenFakeServerAnswersRight() throws Exception {
        try (FakeServer f = new FakeServer(false, false)) {
            NioGiopClient.PhaseResult ramp = f.ramp(5);
            assertThat(ramp.errors()).isZero();
            assertThat(ramp.calls()).isEqualTo(5);
        }
    }

    @Test
    void shouldNameTheSystemExceptionOfAReply() throws Exception {
        try (FakeServer f = new FakeServer(Answer.SYSTEM_EXCEPTION)) {
            NioGiopClient.PhaseResult ramp = f.ramp(3);
            assertThat(ramp.calls()).isZero();
            assertThat(ramp.errors()).isEqualTo(3);
            assertThat(ramp.firstErrors().get(0))
                    .isEqualTo("reply status 2 (SYSTEM_EXCEPTION IDL:omg.org/CORBA/TRANSIENT:1.0, minor 0x4f4d0001)");
        }
    }

    @Test
    void shouldRefuseARepositoryIdLongerThanTheReplyBeforeAllocatingIt() throws Exception {
        try (FakeServer f = new FakeServer(Answer.HUGE_REPOSITORY_ID)) {
            NioGiopClient.PhaseResult ramp = f.ramp(3);
            assertThat(ramp.calls()).isZero();
            assertThat(ramp.errors()).isEqualTo(3);
            assertThat(ramp.firstErrors().get(0)).startsWith(
                    "reply status 2 (SYSTEM_EXCEPTION) with a repository id of 1073741824 bytes, ");
        }
    }

    private enum Answer { RIGHT, WRONG_ID, WRONG_OCTETS, SYSTEM_EXCEPTION, HUGE_REPOSITORY_ID }

    /** Reads GIOP requests and answers each with a Reply of its body's octets, altered as asked. */
    private static final class FakeServer implements AutoCloseable {
        private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final Thread acceptor;

        FakeServer(boolean wrongId, boolean wrongOctets) throws IOException {
            this(wrongId ? Answer.WRONG_ID : wrongOctets ? Answer.WRONG_OCTETS : Answer.RIGHT);
        }

        FakeServer(Answer answer) throws IOException {
            acceptor = new Thread(() -> {
                while (!socket.isClosed()) {
                    try {
                        Socket s = socket.accept();
                        Thread t = new Thread(() -> answer(s, answer));
                        t.setDaemon(true);
                        t.start();
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
        }

        NioGiopClient.PhaseResult ramp(int n) throws IOException {
            IorInfo ior = new IorInfo("IDL:irmibench/Echo:1.0", "127.0.0.1", socket.getLocalPort(), new byte[] {1, 2, 3});
            try (NioGiopClient c = new NioGiopClient(ior, 100)) {
                return c.ramp(n, 4, Duration.ofSeconds(5), Duration.ofSeconds(10));
            }
        }

        private static void answer(Socket s, Answer answer) {
            try (s) {
                DataInputStream in = new DataInputStream(s.getInputStream());
                OutputStream out = s.getOutputStream();
                while (true) {
                    byte[] header = new byte[12];
                    in.readFully(header);
                    int size = ByteBuffer.wrap(header).getInt(8);
                    byte[] body = new byte[size];
                    in.readFully(body);
                    ByteBuffer req = ByteBuffer.wrap(body).order(ByteOrder.BIG_ENDIAN);
                    int id = req.getInt(0);
                    // The request's argument is its last ulong-prefixed run of octets: 100 of them.
                    byte[] octets = Arrays.copyOfRange(body, body.length - 100, body.length);
                    if (answer == Answer.SYSTEM_EXCEPTION || answer == Answer.HUGE_REPOSITORY_ID) {
                        out.write(systemException(id, answer == Answer.HUGE_REPOSITORY_ID));
                        out.flush();
                        continue;
                    }
                    if (answer == Answer.WRONG_OCTETS) {
                        octets[0] ^= 1;
                    }
                    ByteBuffer r = ByteBuffer.allocate(12 + 16 + octets.length).order(ByteOrder.BIG_ENDIAN);
                    r.put(new byte[] {'G', 'I', 'O', 'P', 1, 2, 0, 1});
                    r.putInt(r.capacity() - 12);
                    r.putInt(answer == Answer.WRONG_ID ? id + 1 : id);
                    r.putInt(0); // NO_EXCEPTION
                    r.putInt(0); // no service contexts
                    r.putInt(octets.length); // at offset 24: already 8-aligned
                    r.put(octets);
                    out.write(r.array());
                    out.flush();
                }
            } catch (IOException e) {
                // the client closed the connection
            }
        }

        /** A Reply with status SYSTEM_EXCEPTION: TRANSIENT, or a repository id that claims 2^30 bytes. */
        private static byte[] systemException(int id, boolean hugeId) {
            byte[] repoId = "IDL:omg.org/CORBA/TRANSIENT:1.0\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            ByteBuffer r = ByteBuffer.allocate(12 + 16 + 4 + repoId.length + 4 + 4).order(ByteOrder.BIG_ENDIAN);
            r.put(new byte[] {'G', 'I', 'O', 'P', 1, 2, 0, 1});
            r.putInt(r.capacity() - 12);
            r.putInt(id);
            r.putInt(2); // SYSTEM_EXCEPTION
            r.putInt(0); // no service contexts
            r.putInt(hugeId ? 1 << 30 : repoId.length); // at offset 24: already 8-aligned
            r.put(repoId); // 32 bytes: the minor code follows at an aligned offset
            r.putInt(0x4f4d0001);
            r.putInt(1); // COMPLETED_NO
            return r.array();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
