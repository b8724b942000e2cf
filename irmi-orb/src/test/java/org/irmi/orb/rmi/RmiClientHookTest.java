package org.irmi.orb.rmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.rmi.RemoteException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.irmi.orb.CallOutcome;
import org.irmi.orb.ClientCall;
import org.irmi.orb.ClientDecision;
import org.irmi.orb.IrmiORB;
import org.irmi.orb.Rejection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

class RmiClientHookTest {

    private ORB server;
    private ORB client;

    @AfterEach
    void tearDown() {
        Rmi.destroy(client, server);
    }

    @Test
    void shouldFailBeforeMarshallingWhenClientHookFailsAnRmiCall() throws Exception {
        server = RmiIiopEchoTest.orb("org.irmi.orb.IrmiORB");
        client = RmiIiopEchoTest.orb("org.irmi.orb.IrmiORB");
        RemoteEcho echo = Rmi.lookup(client, Rmi.export(server, new RemoteEchoImpl()));
        List<ClientCall> seen = new CopyOnWriteArrayList<>();
        IrmiORB.of(client).orElseThrow().hooks().setClientCallHook(call -> {
            seen.add(call);
            return call.operation().equals("measure")
                    ? ClientDecision.fail(Rejection.transientFailure(42, "slow client"))
                    : ClientDecision.proceed();
        });
        int before = Tripwire.MARSHALLED.get();
        assertThatThrownBy(() -> echo.measure(new Tripwire())).isInstanceOf(RemoteException.class)
                .hasRootCauseInstanceOf(org.omg.CORBA.TRANSIENT.class);
        assertThat(Tripwire.MARSHALLED.get()).isEqualTo(before);
        assertThat(echo.echoText("fine")).isEqualTo("fine");
        assertThat(seen).extracting(ClientCall::operation).containsExactly("measure", "echoText");
        assertThat(seen).allMatch(ClientCall::rmi);
        assertThat(seen.get(0).targetKey()).startsWith("127.0.0.1:");
    }

    @Test
    void shouldReturnLocalResultWithoutSendingWhenClientHookShortCircuitsAnRmiCall() throws Exception {
        server = RmiIiopEchoTest.orb("org.irmi.orb.IrmiORB");
        client = RmiIiopEchoTest.orb("org.irmi.orb.IrmiORB");
        RemoteEcho echo = Rmi.lookup(client, Rmi.export(server, new RemoteEchoImpl()));
        IrmiORB.of(client).orElseThrow().hooks().setClientCallHook(call -> call.operation().equals("echoText")
                ? ClientDecision.shortCircuit("cached") : ClientDecision.shortCircuit(null));
        int before = Tripwire.MARSHALLED.get();
        assertThat(echo.echoText("x")).isEqualTo("cached");
        assertThat(echo.measure(new Tripwire())).isZero();
        assertThat(Tripwire.MARSHALLED.get()).isEqualTo(before);
        assertThat(org.irmi.orb.IrmiORB.of(server).orElseThrow().transport().orElseThrow().stats().messagesRead())
                .isZero();
    }

    @Test
    void shouldSeeArgumentsAndEndOfCallWhenClientHookWatchesAnRmiCall() throws Exception {
        server = RmiIiopEchoTest.orb("org.irmi.orb.IrmiORB");
        client = RmiIiopEchoTest.orb("org.irmi.orb.IrmiORB");
        RemoteEcho echo = Rmi.lookup(client, Rmi.export(server, new RemoteEchoImpl()));
        List<Object> args = new CopyOnWriteArrayList<>();
        List<org.irmi.orb.CallOutcome> ends = new CopyOnWriteArrayList<>();
        IrmiORB.of(client).orElseThrow().hooks().setClientCallHook(new org.irmi.orb.ClientCallHook() {
            @Override
            public ClientDecision beforeCall(ClientCall call) {
                args.addAll(java.util.Arrays.asList(call.arguments()));
                return ClientDecision.proceed();
            }

            @Override
            public void afterCall(ClientCall call, long roundTripNanos, CallOutcome outcome) {
                ends.add(outcome);
            }
        });
        assertThat(echo.echoText("x")).isEqualTo("x");
        assertThatThrownBy(() -> echo.refuse("no")).isInstanceOf(RefusedException.class);
        assertThat(args).containsExactly("x", "no");
        assertThat(ends).containsExactly(org.irmi.orb.CallOutcome.REPLY,
                org.irmi.orb.CallOutcome.USER_EXCEPTION);
    }

    @Test
    void shouldCallOtherServerWhenClientHookForwardsAnRmiCall() throws Exception {
        server = RmiIiopEchoTest.orb("org.irmi.orb.IrmiORB");
        client = RmiIiopEchoTest.orb("org.irmi.orb.IrmiORB");
        RemoteEcho primary = Rmi.lookup(client, Rmi.export(server, new RemoteEchoImpl()));
        String other = Rmi.export(server, new RemoteEchoImpl() {
            @Override
            public String echoText(String s) {
                return "other:" + s;
            }
        });
        IrmiORB.of(client).orElseThrow().hooks().setClientCallHook(call -> ClientDecision.forward(other));
        assertThat(primary.echoText("x")).isEqualTo("other:x");
    }
}
