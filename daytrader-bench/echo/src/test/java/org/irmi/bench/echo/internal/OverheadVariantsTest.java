package org.irmi.bench.echo.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.irmi.bench.echo.EchoServer;
import org.irmi.bench.echo.OrbVariants;
import org.irmi.isolation.Decision;
import org.irmi.isolation.IsolationRuntime;
import org.irmi.isolation.PointKind;
import org.irmi.orb.IrmiORB;
import org.irmi.orb.isolation.OrbIsolation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The overhead variants' SLA files, applied through {@code irmi.sla} to a real I-RMI echo server
 * under the omniORB load client: they switch on what docs/benchmarks/overhead.md says, and nothing
 * triggers under echo load.
 */
class OverheadVariantsTest {

    private static NativeClients clients;

    @BeforeAll
    static void build() {
        assertTrue(NativeClients.unavailableReason().isEmpty(),
                () -> "the omniORB C++ clients cannot be built: " + NativeClients.unavailableReason().orElse("")
                        + " (run scripts/prereqs.sh)");
        assertTrue(OrbVariants.irmi().isAvailable(), "the I-RMI ORB is not on the class path: build irmi-orb first (mvn install)");
        clients = NativeClients.build();
    }

    private static Path sla(String name) throws Exception {
        return Path.of(OverheadVariantsTest.class.getResource("/sla/" + name).toURI());
    }

    /** Runs a short 8-connection load against a server started with {@code slaFile}; returns its runtime. */
    private static IsolationRuntime loadWith(Path slaFile, Path dir, java.util.function.Consumer<EchoServer> check)
            throws Exception {
        EchoServer server = EchoServer.start(OrbVariants.irmi(), "127.0.0.1", 0, Map.of("irmi.sla", slaFile.toString()));
        try {
            Path ior = dir.resolve("echo.ior");
            EchoServer.writeIor(server.ior(), ior);
            LoadRun.run(clients.loadClient(), ior, -1, IorInfo.parse(Files.readString(ior)).port(), 8, 100,
                    Duration.ofMillis(100), Duration.ofMillis(400), List.of());
            check.accept(server);
            return OrbIsolation.of(IrmiORB.of(server.orb()).orElseThrow()).orElseThrow().runtime();
        } finally {
            server.close();
        }
    }

    @Test
    void shouldMeasureEveryRequestAndDecideNothingWhenMonitoringOnly(@TempDir Path dir) throws Exception {
        boolean[] measured = new boolean[1];
        IsolationRuntime rt = loadWith(sla("irmi-mon.yaml"), dir,
                s -> measured[0] = IrmiORB.of(s.orb()).orElseThrow().hooks().measureCpuAndAllocation());

        assertThat(measured[0]).as("per-request CPU and allocation reads").isTrue();
        assertThat(rt.slowClient()).isEmpty();
        assertThat(rt.crosstalkConfig()).isEmpty();
        assertThat(rt.decisions(PointKind.POISON_MESSAGE, Decision.Action.PROCEED)).isPositive();
        assertThat(rt.decisions(PointKind.POISON_MESSAGE, Decision.Action.REJECT)).isZero();
        assertThat(rt.inPoisonEpisode()).isFalse();
    }

    @Test
    void shouldInstallEveryPointAndTriggerNoneWhenAllOn(@TempDir Path dir) throws Exception {
        IsolationRuntime rt = loadWith(sla("irmi-all.yaml"), dir, s -> { });

        assertThat(rt.slowClient()).isPresent();
        assertThat(rt.poison()).isPresent();
        assertThat(rt.crosstalkConfig()).isPresent();
        assertThat(rt.decisions(PointKind.POISON_MESSAGE, Decision.Action.PROCEED)).isPositive();
        for (PointKind point : PointKind.values()) {
            for (Decision.Action action : Decision.Action.values()) {
                if (action != Decision.Action.PROCEED) {
                    assertThat(rt.decisions(point, action)).as("%s %s decisions", point, action).isZero();
                }
            }
        }
        assertThat(rt.inPoisonEpisode()).isFalse();
    }
}
