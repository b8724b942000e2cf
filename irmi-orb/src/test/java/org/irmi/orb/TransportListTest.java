package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import irmitest.Echo;
import irmitest.EchoHelper;

import org.irmi.orb.internal.SelectorFactories;
import org.jacorb.orb.ParsedIOR;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.omg.CORBA.ORB;
import org.omg.IOP.TAG_INTERNET_IOP;

/**
 * I-RMI's selector transport takes over IIOP in a server's own list of transports and keeps the
 * others (JacORB's {@code BugJac192Test} lists {@code IIOPFactories,WIOPFactories}): the IOR keeps
 * every profile, IIOP is read by the selector, and each transport serves a client that has only
 * that transport. Where the server lists them does not matter: ORB properties here, a properties
 * file ({@code custom.props}, as a {@code jacorb.properties} would), or system properties (JacORB's
 * own regression classes, docs/benchmarks/compatibility.md).
 */
class TransportListTest {

    private static final String IIOP = "org.jacorb.orb.iiop.IIOPFactories";
    private static final String SECOND = SecondTransport.Factories.class.getName();
    private static final String SELECTOR = SelectorFactories.class.getName();

    @TempDir
    Path dir;

    private ORB server;
    private ORB iiopClient;
    private ORB secondClient;

    @AfterEach
    void tearDown() {
        Orbs.destroy(iiopClient, secondClient, server);
    }

    @Test
    void shouldKeepTheServersOtherTransportWhenTheServerListsIiopAndAnother() {
        server = Orbs.jacorbWithIrmi("jacorb.transport.factories", IIOP + "," + SECOND);

        assertServedOverBoth(server, server);
    }

    @Test
    void shouldKeepTheServersOtherTransportWhenTheServerRunsOnIrmisOrbClass() {
        server = Orbs.irmi("jacorb.transport.factories", IIOP + "," + SECOND);

        assertServedOverBoth(server, IrmiORB.of(server).orElseThrow().jacorb());
    }

    @Test
    void shouldKeepTheServersOtherTransportWhenTheServerListsThemInAPropertiesFile() throws IOException {
        server = Orbs.jacorbWithIrmi("custom.props", listInAFile(IIOP + "," + SECOND).toString());

        assertServedOverBoth(server, server);
    }

    @Test
    void shouldKeepTheServersOtherTransportWhenAServerOnIrmisOrbClassListsThemInAPropertiesFile() throws IOException {
        // IrmiORB adds its defaults as ORB properties, which win over a file: they must name no transports
        server = Orbs.irmi("custom.props", listInAFile(IIOP + "," + SECOND).toString());

        assertServedOverBoth(server, IrmiORB.of(server).orElseThrow().jacorb());
    }

    @Test
    void shouldTakeOverIiopAloneWhenTheServerListsNoTransports() {
        server = Orbs.jacorbWithIrmi();
        String ior = Orbs.serve(server, new EchoServant());

        assertThat(transportsOf(server)).containsExactly(SELECTOR);
        assertThat(profileTags(ior)).containsExactly(TAG_INTERNET_IOP.value);
        iiopClient = Orbs.stock();
        assertThat(EchoHelper.narrow(iiopClient.string_to_object(ior)).echoString("plain")).isEqualTo("plain");
        assertThat(Orbs.transport(server).stats().acceptedConnections()).isEqualTo(1);
    }

    @Test
    void shouldKeepTheListAsItIsWhenTheUserAlreadyPutTheSelectorInIiopsPlace() {
        server = Orbs.jacorbWithIrmi("jacorb.transport.factories", SELECTOR + "," + SECOND);

        assertServedOverBoth(server, server);
    }

    private void assertServedOverBoth(ORB orb, ORB jacorb) {
        String ior = Orbs.serve(orb, new EchoServant());

        assertThat(transportsOf(jacorb)).containsExactly(SELECTOR, SECOND);
        assertThat(profileTags(ior)).containsExactlyInAnyOrder(TAG_INTERNET_IOP.value, SecondTransport.TAG);

        iiopClient = Orbs.stock();
        Echo overIiop = EchoHelper.narrow(iiopClient.string_to_object(ior));
        assertThat(overIiop.echoString("over IIOP")).isEqualTo("over IIOP");
        assertThat(Orbs.transport(orb).stats().acceptedConnections()).as("IIOP is read by I-RMI's selector").isEqualTo(1);

        secondClient = Orbs.stock("jacorb.transport.factories", SECOND);
        Echo overSecond = EchoHelper.narrow(secondClient.string_to_object(ior));
        assertThat(overSecond.echoString("over the second transport")).isEqualTo("over the second transport");
        assertThat(Orbs.transport(orb).stats().acceptedConnections())
                .as("the second transport has a listener of its own").isEqualTo(1);
    }

    private Path listInAFile(String transports) throws IOException {
        Path file = dir.resolve("server.properties");
        Files.writeString(file, "jacorb.transport.factories=" + transports + "\n");
        return file;
    }

    private static List<String> transportsOf(ORB jacorb) {
        return ((org.jacorb.orb.ORB) jacorb).getConfiguration().getAttributeList("jacorb.transport.factories");
    }

    private List<Integer> profileTags(String ior) {
        ORB any = server instanceof org.jacorb.orb.ORB ? server : IrmiORB.of(server).orElseThrow().jacorb();
        return Arrays.stream(new ParsedIOR((org.jacorb.orb.ORB) any, ior).getIOR().profiles).map(p -> p.tag).toList();
    }
}
