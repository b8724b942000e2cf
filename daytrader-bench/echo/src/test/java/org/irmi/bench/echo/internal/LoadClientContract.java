package org.irmi.bench.echo.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.irmi.bench.echo.EchoServer;
import org.irmi.bench.echo.OrbVariant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The omniORB closed-loop load client against an in-process echo server on one ORB variant: the
 * benchmark's measuring instrument, and concurrent interop (many omniORB connections at once).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LoadClientContract {

    private NativeClients clients;
    private EchoServer server;
    private Path iorFile;
    private int port;

    /** The variant under test. */
    abstract OrbVariant variant();

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        assertTrue(NativeClients.unavailableReason().isEmpty(),
                () -> "the omniORB C++ clients cannot be built: " + NativeClients.unavailableReason().orElse("")
                        + " (run scripts/prereqs.sh)");
        assertTrue(variant().isAvailable(),
                () -> "load client test for " + variant().name() + ": " + variant().orbClass() + " is not on the class path");
        clients = NativeClients.build();
        server = EchoServer.start(variant(), "127.0.0.1", 0, Map.of());
        iorFile = dir.resolve("echo.ior");
        EchoServer.writeIor(server.ior(), iorFile);
        port = IorInfo.parse(Files.readString(iorFile)).port();
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void shouldOpenOneServerConnectionPerCallerWhenAskedForEight() {
        LoadRun.Trial t = LoadRun.run(clients.loadClient(), iorFile, ProcessHandle.current().pid(), port, 8, 100,
                Duration.ofMillis(200), Duration.ofMillis(600), List.of());

        assertThat(t.result().connected()).isEqualTo(8);
        assertThat(t.serverConnections()).isEqualTo(8);
    }

    @Test
    void shouldMeasureServerCpuBetweenTheClientsMarksWhenServerIsWatched() {
        LoadRun.Trial t = LoadRun.run(clients.loadClient(), iorFile, ProcessHandle.current().pid(), port, 2, 100,
                Duration.ZERO, Duration.ofMillis(500), List.of());

        assertThat(t.serverCpuNanos()).isNotNegative();
        assertThat(t.serverCpuMicrosPerCall()).isNotNegative();
    }

    @Test
    void shouldAnswerEveryCallerWhenEightCallersRunConcurrently() {
        LoadRun.Trial t = LoadRun.run(clients.loadClient(), iorFile, -1, port, 8, 100,
                Duration.ofMillis(200), Duration.ofMillis(600), List.of("-ORBclientCallTimeOutPeriod", "5000"));

        assertThat(t.result().stuck()).as("callers left without a reply").isZero();
        assertThat(t.result().errorsAll()).as("calls that raised (5 s call timeout)").isZero();
        assertThat(t.result().calls()).isPositive();
    }

    @Test
    void shouldRecordEveryMeasuredCallWhenServerEchoesCorrectly() {
        long before = server.calls();
        LoadRun.Trial t = LoadRun.run(clients.loadClient(), iorFile, -1, port, 2, 65536,
                Duration.ZERO, Duration.ofMillis(500), List.of());

        assertThat(t.result().calls()).isPositive();
        assertThat(t.result().histogram().getTotalCount()).isEqualTo(t.result().calls());
        assertThat(t.result().failedCalls()).isZero();
        assertThat(server.calls() - before).isGreaterThanOrEqualTo(t.result().calls());
    }

    @Test
    void shouldFailWithClientOutputWhenIorFileIsMissing(@TempDir Path empty) {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LoadRun.run(clients.loadClient(),
                        empty.resolve("none.ior"), -1, port, 1, 100, Duration.ZERO, Duration.ofMillis(100), List.of()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot read an IOR");
    }
}
