package org.irmi.orb.rmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

class RmiIiopEchoTest {

    private ORB server;
    private ORB client;

    @AfterEach
    void tearDown() {
        Rmi.destroy(client, server);
    }

    static ORB orb(String orbClass) {
        Properties p = new Properties();
        p.setProperty("org.omg.CORBA.ORBClass", orbClass);
        p.setProperty("OAIAddr", "127.0.0.1");
        p.setProperty("jacorb.iiop.enable_loopback", "off");
        return ORB.init(new String[0], p);
    }

    private RemoteEcho connect(String serverClass, String clientClass) throws Exception {
        server = orb(serverClass);
        client = orb(clientClass);
        return Rmi.lookup(client, Rmi.export(server, new RemoteEchoImpl()));
    }

    private static void roundTrips(RemoteEcho echo) throws Exception {
        Greeting g = new Greeting("hi", 41, new byte[] {1, 2, 3});
        assertThat(echo.greet(g)).isEqualTo(new Greeting("hi!", 42, new byte[] {1, 2, 3}));
        assertThat(echo.echoText("text")).isEqualTo("text");
        assertThatThrownBy(() -> echo.refuse("nope")).isInstanceOf(RefusedException.class).hasMessage("nope");
    }

    @Test
    void shouldRoundTripWhenIrmiClientCallsIrmiServer() throws Exception {
        roundTrips(connect("org.irmi.orb.IrmiORB", "org.irmi.orb.IrmiORB"));
    }

    @Test
    void shouldRoundTripWhenStockClientCallsIrmiServer() throws Exception {
        roundTrips(connect("org.irmi.orb.IrmiORB", "org.jacorb.orb.ORB"));
    }

    @Test
    void shouldRoundTripWhenIrmiClientCallsStockServer() throws Exception {
        roundTrips(connect("org.jacorb.orb.ORB", "org.irmi.orb.IrmiORB"));
    }

    @Test
    void shouldAnswerEveryCallRightWhenManyThreadsShareOneRmiConnection() throws Exception {
        RemoteEcho echo = connect("org.irmi.orb.IrmiORB", "org.irmi.orb.IrmiORB");
        java.util.concurrent.atomic.AtomicInteger wrong = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
        Thread[] callers = new Thread[8];
        for (int t = 0; t < callers.length; t++) {
            int id = t;
            callers[t] = new Thread(() -> {
                for (int i = 0; i < 200; i++) {
                    String s = "t" + id + "-" + i + "-" + "x".repeat((id * 1_301 + i * 53) % 12_000);
                    try {
                        if (!s.equals(echo.echoText(s))) {
                            wrong.incrementAndGet();
                        }
                    } catch (java.rmi.RemoteException e) {
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
        assertThat(done).hasValue(1_600);
        assertThat(wrong).hasValue(0);
    }

    @Test
    void shouldNarrowToIrmiDynamicStubWithoutHandSetPropertiesWhenIrmiOrbIsUsed() throws Exception {
        RemoteEcho echo = connect("org.irmi.orb.IrmiORB", "org.irmi.orb.IrmiORB");
        assertThat(System.getProperty("javax.rmi.CORBA.PortableRemoteObjectClass"))
                .isEqualTo("org.irmi.orb.internal.rmi.IrmiPortableRemoteObject");
        assertThat(System.getProperty("org.omg.CORBA.SkipGmbalInit")).isEqualTo("true");
        assertThat(echo).isInstanceOf(org.irmi.orb.internal.rmi.IrmiRemoteStub.class);
        assertThat(((org.irmi.orb.internal.rmi.IrmiRemoteStub) echo).corbaReference()._is_a(
                "RMI:org.irmi.orb.rmi.RemoteEcho:0000000000000000")).isTrue();
    }
}
