package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import irmitest.Echo;
import irmitest.EchoHelper;

import org.irmi.orb.internal.TransportConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.omg.CORBA.ORB;

/**
 * Issue 38, part 2: {@code jacorb.connection.server.max_receptor_threads} unset imposes no limit, with
 * JacORB's own configuration defaults in play (JacORB's server reads the key with 1,000 and its
 * configuration then answers 1,000 to everyone), for both ways of switching a JacORB server to
 * I-RMI; and where the user sets it (ORB properties, system properties, a properties file), it applies.
 */
class UnsetConnectionLimitsTest {

    /** More than JacORB's default of 1,000 receptor threads. */
    private static final int STALLED = 1010;

    @TempDir
    Path dir;

    private ORB server;
    private ORB client;

    @AfterEach
    void tearDown() {
        Orbs.destroy(client, server);
    }

    @Test
    void shouldServeANewClientBeside1010StalledConnectionsWhenSwitchedByTheOrbClass() throws Exception {
        assertServedBesideStalled(() -> Orbs.irmi());
    }

    @Test
    void shouldServeANewClientBeside1010StalledConnectionsWhenSwitchedByTransportFactoriesAndInitializer() throws Exception {
        assertServedBesideStalled(Orbs::jacorbWithIrmi);
    }

    private void assertServedBesideStalled(Supplier<ORB> serverOrb) throws Exception {
        server = serverOrb.get();
        String ior = Orbs.serve(server, new EchoServant());
        IrmiTransport transport = Orbs.transport(server);
        try (StalledSockets stalled = StalledSockets.open(transport.port(), STALLED, null)) {
            awaitOpen(transport, STALLED);
            client = Orbs.stock("jacorb.retries", "0");
            Echo echo = EchoHelper.narrow(client.string_to_object(ior));

            assertThat(echo.echoString("newcomer")).isEqualTo("newcomer");
            TransportStats s = transport.stats();
            assertThat(s.openConnections()).as("every stalled connection is still held").isEqualTo(STALLED + 1);
            assertThat(s.refusedConnections()).isZero();
            assertThat(s.shedNeverCompleted() + s.shedStalled() + s.shedIdle()).as("no limit was reached").isZero();
        }
    }

    @Test
    void shouldReadNoLimitFromJacorbsDefaultWhenTheKeyIsUnset() throws Exception {
        server = Orbs.jacorbWithIrmi();
        Orbs.serve(server, new EchoServant()); // JacORB's server has read the key with its default by now
        org.jacorb.config.Configuration config = ((org.jacorb.orb.ORB) server).getConfiguration();

        assertThat(config.getAttributeAsInteger(TransportConfig.MAX_RECEPTOR_THREADS, Integer.MAX_VALUE))
                .as("what JacORB's configuration answers").isEqualTo(1000);
        assertThat(TransportConfig.from(config).maxServerConnections()).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void shouldApplyMaxReceptorThreadsSetInTheOrbProperties() throws Exception {
        server = Orbs.jacorbWithIrmi(TransportConfig.MAX_RECEPTOR_THREADS, "7");
        Orbs.serve(server, new EchoServant());

        assertThat(TransportConfig.from(((org.jacorb.orb.ORB) server).getConfiguration()).maxServerConnections()).isEqualTo(7);
    }

    @Test
    void shouldApplyMaxReceptorThreadsSetAsASystemProperty() throws Exception {
        System.setProperty(TransportConfig.MAX_RECEPTOR_THREADS, "8");
        try {
            server = Orbs.jacorbWithIrmi();
            Orbs.serve(server, new EchoServant());
        } finally {
            System.clearProperty(TransportConfig.MAX_RECEPTOR_THREADS);
        }

        assertThat(TransportConfig.from(((org.jacorb.orb.ORB) server).getConfiguration()).maxServerConnections()).isEqualTo(8);
    }

    @Test
    void shouldApplyMaxReceptorThreadsSetInAPropertiesFile() throws Exception {
        Path file = dir.resolve("server.properties");
        Files.writeString(file, TransportConfig.MAX_RECEPTOR_THREADS + "=9\n");
        server = Orbs.jacorbWithIrmi("custom.props", file.toString());
        Orbs.serve(server, new EchoServant());

        assertThat(TransportConfig.from(((org.jacorb.orb.ORB) server).getConfiguration()).maxServerConnections()).isEqualTo(9);
    }

    @Test
    void shouldTakeTheLowerOfMaxServerConnectionsAndMaxReceptorThreads() throws Exception {
        server = Orbs.jacorbWithIrmi(TransportConfig.MAX_RECEPTOR_THREADS, "50", TransportConfig.MAX_SERVER_CONNECTIONS, "20");
        Orbs.serve(server, new EchoServant());

        assertThat(TransportConfig.from(((org.jacorb.orb.ORB) server).getConfiguration()).maxServerConnections()).isEqualTo(20);
    }

    static void awaitOpen(IrmiTransport transport, int atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (transport.stats().openConnections() < atLeast) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the server holds " + transport.stats().openConnections() + " connections, not "
                        + atLeast + ", after 30 s");
            }
            Thread.sleep(5); // polling for a condition, bounded by the deadline
        }
    }
}
