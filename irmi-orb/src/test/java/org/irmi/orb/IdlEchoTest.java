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
    void shouldAnswerEveryCallRightWhenManyThreadsShareOneConnection() throws Exception {
        Echo echo = connect(Orbs.irmi(), Orbs.irmi());
        java.util.concurrent.atomic.AtomicInteger wrong = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
        Thread[] callers = new Thread[8];
        for (int t = 0; t < callers.length; t++) {
            int id = t;
            callers[t] = new Thread(() -> {
                for (int i = 0; i < 300; i++) {
                    // sizes from a few bytes to past the 8 KiB staging limit, so replies of every
                    // shape share the one connection
                    byte[] payload = new byte[(id * 3_001 + i * 97) % 20_000];
                    java.util.Arrays.fill(payload, (byte) (id * 31 + i));
                    String s = "t" + id + "-" + i;
                    if (!java.util.Arrays.equals(echo.echoBytes(payload), payload) || !s.equals(echo.echoString(s))) {
                        wrong.incrementAndGet();
                    }
                    done.incrementAndGet();
                }
            });
            callers[t].start();
        }
        for (Thread t : callers) {
            t.join(120_000);
        }
        assertThat(done).hasValue(2_400);
        assertThat(wrong).hasValue(0);
        assertThat(Orbs.transport(server).stats().acceptedConnections()).isEqualTo(1);
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
