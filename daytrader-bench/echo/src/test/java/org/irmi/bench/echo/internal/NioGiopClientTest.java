package org.irmi.bench.echo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

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
        try (FakeGiopEchoServer f = new FakeGiopEchoServer(FakeGiopEchoServer.Answer.WRONG_OCTETS)) {
            NioGiopClient.PhaseResult ramp = ramp(f, 5);
            assertThat(ramp.calls()).isZero();
            assertThat(ramp.errors()).isEqualTo(5);
            assertThat(ramp.firstErrors()).contains("reply octets differ from those sent");
        }
    }

    @Test
    void shouldCountReplyToOtherRequestIdAsError() throws Exception {
        try (FakeGiopEchoServer f = new FakeGiopEchoServer(FakeGiopEchoServer.Answer.WRONG_ID)) {
            NioGiopClient.PhaseResult ramp = ramp(f, 5);
            assertThat(ramp.calls()).isZero();
            assertThat(ramp.errors()).isEqualTo(5);
            assertThat(ramp.firstErrors().get(0)).startsWith("reply to request 2, expected 1");
        }
    }

    @Test
    void shouldCountRightReplyAsCallWhenFakeServerAnswersRight() throws Exception {
        try (FakeGiopEchoServer f = new FakeGiopEchoServer(FakeGiopEchoServer.Answer.RIGHT)) {
            NioGiopClient.PhaseResult ramp = ramp(f, 5);
            assertThat(ramp.errors()).isZero();
            assertThat(ramp.calls()).isEqualTo(5);
        }
    }

    @Test
    void shouldNameTheSystemExceptionOfAReply() throws Exception {
        try (FakeGiopEchoServer f = new FakeGiopEchoServer(FakeGiopEchoServer.Answer.SYSTEM_EXCEPTION)) {
            NioGiopClient.PhaseResult ramp = ramp(f, 3);
            assertThat(ramp.calls()).isZero();
            assertThat(ramp.errors()).isEqualTo(3);
            assertThat(ramp.firstErrors().get(0))
                    .isEqualTo("reply status 2 (SYSTEM_EXCEPTION IDL:omg.org/CORBA/TRANSIENT:1.0, minor 0x4f4d0001)");
        }
    }

    @Test
    void shouldRefuseARepositoryIdLongerThanTheReplyBeforeAllocatingIt() throws Exception {
        try (FakeGiopEchoServer f = new FakeGiopEchoServer(FakeGiopEchoServer.Answer.HUGE_REPOSITORY_ID)) {
            NioGiopClient.PhaseResult ramp = ramp(f, 3);
            assertThat(ramp.calls()).isZero();
            assertThat(ramp.errors()).isEqualTo(3);
            assertThat(ramp.firstErrors().get(0)).startsWith(
                    "reply status 2 (SYSTEM_EXCEPTION) with a repository id of 1073741824 bytes, ");
        }
    }

    /** The client's ramp of {@code n} connections against {@code f}. */
    private static NioGiopClient.PhaseResult ramp(FakeGiopEchoServer f, int n) throws IOException {
        try (NioGiopClient c = new NioGiopClient(f.ior(), 100)) {
            return c.ramp(n, 4, Duration.ofSeconds(5), Duration.ofSeconds(10));
        }
    }
}
