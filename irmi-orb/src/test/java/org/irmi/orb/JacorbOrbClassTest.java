package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import irmitest.Echo;
import irmitest.EchoHelper;

import org.irmi.orb.internal.TransportConfig;
import org.irmi.orb.isolation.OrbIsolation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.omg.CORBA.COMM_FAILURE;
import org.omg.CORBA.ORB;

/**
 * I-RMI inside JacORB's own ORB class: the application keeps {@code org.jacorb.orb.ORB} and sets
 * one property, I-RMI's ORB initializer. Code that casts the ORB to JacORB's class (JacORB's Naming Service, its
 * configuration lookup, many app servers) then runs unchanged.
 */
class JacorbOrbClassTest {

    private static final String CROSSTALK_SLA = TestSlas.CROSSTALK;

    @TempDir
    Path dir;

    private ORB server;
    private ORB client;

    @AfterEach
    void tearDown() {
        Orbs.destroy(client, server);
    }

    /** JacORB's ORB class with I-RMI switched on by its ORB initializer property. */
    private static ORB jacorbWithIrmi(String... extra) {
        return Orbs.jacorbWithIrmi(extra);
    }

    @Test
    void shouldServeOnTheSelectorTransportWhileTheOrbStaysJacorbsOwn() {
        server = jacorbWithIrmi();
        client = Orbs.stock();
        Echo echo = EchoHelper.narrow(client.string_to_object(Orbs.serve(server, new EchoServant())));

        assertThat(echo.echoString("drop-in")).isEqualTo("drop-in");

        assertThat(server).isInstanceOf(org.jacorb.orb.ORB.class);
        IrmiORB api = IrmiORB.of(server).orElseThrow();
        assertThat(api.attached()).isTrue();
        IrmiTransport transport = api.transport().orElseThrow();
        assertThat(transport.stats().acceptedConnections()).isEqualTo(1);
        assertThat(Threads.named(IrmiTransport.READER_THREAD_NAME)).isPositive();
    }

    @Test
    void shouldBoundTheConnectionsServedAtOnceByMaxReceptorThreadsInsideJacorbsOrbClass() {
        // JacORB's BugJac460Test, run with JacORB's ORB class: one receptor thread, a second client fails
        server = jacorbWithIrmi(TransportConfig.MAX_RECEPTOR_THREADS, "1");
        String ior = Orbs.serve(server, new EchoServant());
        client = Orbs.stock();
        assertThat(EchoHelper.narrow(client.string_to_object(ior)).echoString("first")).isEqualTo("first");

        ORB second = Orbs.stock("jacorb.retries", "0");
        try {
            Echo echo = EchoHelper.unchecked_narrow(second.string_to_object(ior));
            assertThatThrownBy(() -> echo.echoString("second")).isInstanceOf(COMM_FAILURE.class);
            assertThat(Orbs.transport(server).stats().refusedConnections()).isEqualTo(1);
        } finally {
            Orbs.destroy(second);
        }
    }

    @Test
    void shouldApplyIrmisDefaultsWhereTheUserSetNothing() {
        server = jacorbWithIrmi("jacorb.poa.thread_pool_max", "7");
        org.jacorb.config.Configuration config = ((org.jacorb.orb.ORB) server).getConfiguration();

        assertThat(config.getAttribute("jacorb.poa.queue_max", null)).isEqualTo(IrmiORB.DEFAULTS.get("jacorb.poa.queue_max"));
        assertThat(config.getAttribute("jacorb.poa.thread_pool_max", null)).as("the user's own setting").isEqualTo("7");
    }

    @Test
    void shouldStartTheSlasIsolationPointsAndStopThemAtShutdown() throws Exception {
        Path sla = dir.resolve("sla.yaml");
        Files.writeString(sla, CROSSTALK_SLA);
        server = jacorbWithIrmi("irmi.sla", sla.toString());
        client = Orbs.stock();
        Echo echo = EchoHelper.narrow(client.string_to_object(Orbs.serve(server, new EchoServant())));
        IrmiORB api = IrmiORB.of(server).orElseThrow();
        int transportDefault = org.irmi.orb.internal.TransportConfig.DEFAULT_READ_BUDGET_BYTES;
        long deadline = System.nanoTime() + 5_000_000_000L;
        java.util.List<ConnectionView> views = java.util.List.of();
        while (System.nanoTime() < deadline) { // the crosstalk point sets budgets on its own tick
            echo.echoBytes(new byte[4096]);
            views = api.transport().orElseThrow().connections();
            if (!views.isEmpty() && views.get(0).readBudgetBytes() != transportDefault) {
                break;
            }
        }

        assertThat(OrbIsolation.of(api)).isPresent();
        assertThat(views).as("the SLA's crosstalk point sets the read budget (8 KiB base, weight 3)")
                .singleElement().satisfies(c -> assertThat(c.readBudgetBytes()).isIn(8 * 1024, 3 * 8 * 1024));

        server.shutdown(true);
        assertThat(OrbIsolation.of(api)).as("stopped with JacORB's ORB").isEmpty();
    }

    @Test
    void shouldRefuseToServeWithABrokenSlaThoughJacorbIgnoresInitializerErrors() throws Exception {
        Path sla = dir.resolve("broken.yaml");
        Files.writeString(sla, "service: x\nisolationPoints:\n  crosstalk:\n    treshold: 3\n");
        server = jacorbWithIrmi("irmi.sla", sla.toString());

        assertThat(IrmiORB.of(server).orElseThrow().startFailure()).isPresent();
        assertThatThrownBy(() -> Orbs.serve(server, new EchoServant()))
                .hasStackTraceContaining("I-RMI cannot use the SLA " + sla)
                .hasStackTraceContaining("broken.yaml:4");
    }
}
