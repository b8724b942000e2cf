package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import irmitest.Echo;
import irmitest.EchoHelper;
import irmitest.Refused;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

class IdlEchoTest {

    private ORB server;
    private ORB client;

    @AfterEach
    void tearDown() {
        Orbs.destroy(client, server);
    }

    private Echo connect(ORB serverOrb, ORB clientOrb) {
        server = serverOrb;
        client = clientOrb;
        String ior = Orbs.serve(server, new EchoServant());
        return EchoHelper.narrow(client.string_to_object(ior));
    }

    @Test
    void shouldEchoWhenIrmiClientCallsIrmiServer() throws Exception {
        Echo echo = connect(Orbs.irmi(), Orbs.irmi());
        assertThat(echo.echoString("hello")).isEqualTo("hello");
        assertThat(echo.echoBytes(new byte[] {1, 2, 3})).containsExactly(1, 2, 3);
        assertThatThrownBy(() -> echo.fail("no")).isInstanceOf(Refused.class);
        echo.ping();
        assertThat(echo.echoString("after oneway")).isEqualTo("after oneway");
    }

    @Test
    void shouldEchoWhenStockClientCallsIrmiServer() {
        Echo echo = connect(Orbs.irmi(), Orbs.stock());
        assertThat(echo.echoString("hello")).isEqualTo("hello");
        assertThat(echo.echoBytes(new byte[] {4, 5})).containsExactly(4, 5);
    }

    @Test
    void shouldEchoWhenIrmiClientCallsStockServer() {
        Echo echo = connect(Orbs.stock(), Orbs.irmi());
        assertThat(echo.echoString("hello")).isEqualTo("hello");
        assertThat(echo.echoBytes(new byte[] {6})).containsExactly(6);
    }

    @Test
    void shouldEchoWithoutDispatchThreadsWhenInlineDispatchIsChosen() throws Exception {
        Echo echo = connect(Orbs.irmi("irmi.transport.dispatch_threads", "0"), Orbs.irmi());
        assertThat(echo.echoString("inline")).isEqualTo("inline");
        assertThat(echo.sleepMillis(1)).isEqualTo(1);
        assertThatThrownBy(() -> echo.fail("no")).isInstanceOf(Refused.class);
        assertThat(Threads.namedStartingWith("irmi-dispatch")).isZero();
    }

    @Test
    void shouldServeOnExactlyOneReaderThreadWhenIrmiServerIsUp() {
        Echo echo = connect(Orbs.irmi(), Orbs.irmi());
        echo.echoString("x");
        assertThat(Threads.named(IrmiTransport.READER_THREAD_NAME)).isEqualTo(1);
        assertThat(Orbs.transport(server).stats().openConnections()).isEqualTo(1);
    }
}
