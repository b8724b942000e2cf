package org.irmi.bench.echo.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.irmi.bench.echo.OrbVariant;
import org.irmi.bench.echo.OrbVariants;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code omniorb} variant: omniORB's C++ echo server, started by the benchmark's own variant
 * code ({@link ServerProcess#start(OrbVariant, String, NativeClients, Path, Duration)}), under the
 * omniORB load client over real loopback connections.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OmniOrbServerTest {

    private static final List<String> CALL_TIMEOUT = List.of("-ORBclientCallTimeOutPeriod", "5000");

    private NativeClients programs;
    private ServerProcess server;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        assertTrue(NativeClients.unavailableReason().isEmpty(),
                () -> "the omniORB C++ programs cannot be built: " + NativeClients.unavailableReason().orElse("")
                        + " (run scripts/prereqs.sh)");
        programs = NativeClients.build();
        OrbVariant omniorb = OrbVariants.omniorb();
        server = ServerProcess.start(omniorb, "omniorb", programs, dir, Duration.ofSeconds(30));
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void shouldAnswerEveryCallWhenFourCallersLoadItForOneAndAHalfSeconds() {
        LoadRun.Trial t = LoadRun.run(programs.loadClient(), server.iorFile(), server.pid(), server.ior().port(),
                server.statsFile(), 4, 100, Duration.ofMillis(300), Duration.ofMillis(1500), CALL_TIMEOUT);

        assertThat(t.result().calls()).isPositive();
        assertThat(t.result().failedCalls()).as("calls that raised, wrong echoes, callers left waiting").isZero();
        assertThat(t.result().errorsAll()).as("calls that raised, ramp and warm-up included").isZero();
        assertThat(t.result().connected()).isEqualTo(4);
        assertThat(t.serverConnections()).isEqualTo(4);
    }

    @Test
    void shouldEchoLargePayloadsUnchangedWhenCallersSend64Kilobytes() {
        LoadRun.Trial t = LoadRun.run(programs.loadClient(), server.iorFile(), -1, server.ior().port(),
                2, 65536, Duration.ZERO, Duration.ofMillis(500), CALL_TIMEOUT);

        assertThat(t.result().calls()).isPositive();
        assertThat(t.result().mismatches()).isZero();
        assertThat(t.result().failedCalls()).isZero();
    }

    @Test
    void shouldMeasureServerCpuButNoHeapWhenServerIsNotAJvm() {
        LoadRun.Trial t = LoadRun.run(programs.loadClient(), server.iorFile(), server.pid(), server.ior().port(),
                server.statsFile(), 2, 100, Duration.ZERO, Duration.ofMillis(500), CALL_TIMEOUT);

        assertThat(t.serverCpuNanos()).isNotNegative();
        assertThat(t.serverCpuMicrosPerCall()).isNotNegative();
        assertThat(t.heapAfterGcKb()).isEqualTo(-1);
        assertThat(server.heapAfterGcKb()).isEqualTo(-1);
    }

    @Test
    void shouldServeFortyConnectionsWithPooledThreadsWhenVariantAsksForThreadPool() {
        LoadRun.Trial t = LoadRun.run(programs.loadClient(), server.iorFile(), server.pid(), server.ior().port(),
                server.statsFile(), 40, 100, Duration.ofMillis(200), Duration.ofMillis(500), CALL_TIMEOUT);

        assertThat(t.serverConnections()).isEqualTo(40);
        assertThat(t.result().failedCalls()).isZero();
        // Thread per connection would need 40 threads; the pool has at most 20 plus omniORB's own few.
        assertThat(t.serverThreads()).isLessThan(40);
    }
}
