package org.irmi.orb.rmi;

import static org.assertj.core.api.Assertions.assertThat;

import javax.rmi.PortableRemoteObject;

import org.irmi.orb.internal.rmi.IrmiRemoteStub;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

/**
 * RMI-IIOP references on I-RMI as an application server uses them: the static stub where the
 * application ships one, and references received from a server passed on to another, in arguments
 * and in results (JacORB's JacORBJacORBRMITest found both missing).
 */
class RmiReferencesTest {

    private ORB server;
    private ORB client;

    @AfterEach
    void tearDown() {
        Rmi.destroy(client, server);
    }

    @Test
    void shouldNarrowToTheStaticStubWhereTheApplicationHasOne() throws Exception {
        server = RmiIiopEchoTest.orb("org.irmi.orb.IrmiORB");
        client = RmiIiopEchoTest.orb("org.irmi.orb.IrmiORB");
        String ior = Rmi.export(server, new StaticGreeterImpl());

        Object greeter = PortableRemoteObject.narrow(client.string_to_object(ior), StaticGreeter.class);

        assertThat(greeter).isInstanceOf(_StaticGreeter_Stub.class);
        assertThat(((StaticGreeter) greeter).hello("stub")).isEqualTo("hello, stub");
    }

    @Test
    void shouldNarrowToADynamicStubWhereThereIsNoStaticOne() throws Exception {
        server = RmiIiopEchoTest.orb("org.irmi.orb.IrmiORB");
        client = RmiIiopEchoTest.orb("org.irmi.orb.IrmiORB");

        assertThat(Rmi.lookup(client, Rmi.export(server, new RemoteEchoImpl()))).isInstanceOf(IrmiRemoteStub.class);
    }

    @Test
    void shouldPassADynamicStubOnAsAnArgumentAndGetItBackAsAResult() throws Exception {
        server = RmiIiopEchoTest.orb("org.irmi.orb.IrmiORB");
        client = RmiIiopEchoTest.orb("org.irmi.orb.IrmiORB");
        RemoteEcho echo = Rmi.lookup(client, Rmi.export(server, new RemoteEchoImpl()));
        RemoteRelay relay = (RemoteRelay) PortableRemoteObject.narrow(
                client.string_to_object(Rmi.export(server, new RemoteRelayImpl())), RemoteRelay.class);

        assertThat(relay.relay(echo, "passed on")).isEqualTo("passed on");
        RemoteEcho back = relay.passBack(echo);
        assertThat(back.echoText("came back")).isEqualTo("came back");
    }

    /** The server runs on JacORB's own ORB class (this JVM's javax.rmi delegates are still I-RMI's). */
    @Test
    void shouldPassAReferenceOnToAServerOnJacorbsOrbClass() throws Exception {
        server = RmiIiopEchoTest.orb("org.jacorb.orb.ORB");
        client = RmiIiopEchoTest.orb("org.irmi.orb.IrmiORB");
        RemoteEcho echo = Rmi.lookup(client, Rmi.export(server, new RemoteEchoImpl()));
        RemoteRelay relay = (RemoteRelay) PortableRemoteObject.narrow(
                client.string_to_object(Rmi.export(server, new RemoteRelayImpl())), RemoteRelay.class);

        assertThat(relay.relay(echo, "to stock")).isEqualTo("to stock");
        assertThat(relay.passBack(echo).echoText("and back")).isEqualTo("and back");
    }
}
