package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

/**
 * Read pacing (irmi.transport.max_read_defer_ms): while a connection with a larger read budget is in
 * the middle of a message, a lighter connection's requests wait, bounded, instead of being read at
 * once; with pacing off they are read at once. Real ORB, real sockets.
 */
class ReadPacingTest {

    private static final int HEAVY_BUDGET = 256 * 1024;
    private static final int LIGHT_BUDGET = 4 * 1024;

    private ORB server;
    private ORB client;

    @AfterEach
    void tearDown() {
        Orbs.destroy(client, server);
    }

    private static long idOf(IrmiTransport transport, GiopClient c) {
        String local = "127.0.0.1:" + c.socket.getLocalPort();
        return transport.connections().stream().filter(v -> v.peerAddress().equals(local)).findFirst()
                .orElseThrow(() -> new AssertionError("no server connection for " + local)).connectionId();
    }

    private static void awaitConnections(IrmiTransport transport, int n) throws InterruptedException {
        for (int i = 0; i < 500 && transport.connections().size() < n; i++) {
            Thread.sleep(10);
        }
        assertThat(transport.connections()).hasSize(n);
    }

    /**
     * A server with the given pacing bound and two raw connections, heavy (256 KiB budget) and light
     * (4 KiB), the heavy one 1 MB into a 4 MB echoBytes request (so it is mid-message).
     */
    private final class HalfReadLargeRequest implements AutoCloseable {
        final byte[] key;
        final IrmiTransport transport;
        final GiopClient heavy;
        final GiopClient light;
        final byte[] large;

        HalfReadLargeRequest(String maxDeferMillis) throws Exception {
            server = Orbs.irmi("irmi.transport.max_read_defer_ms", maxDeferMillis);
            String ior = Orbs.serve(server, new EchoServant());
            client = Orbs.irmi();
            key = GiopClient.objectKey(client.string_to_object(ior));
            transport = Orbs.transport(server);
            heavy = new GiopClient(transport.port());
            light = new GiopClient(transport.port());
            awaitConnections(transport, 2);
            assertThat(transport.setReadBudget(idOf(transport, heavy), HEAVY_BUDGET)).isTrue();
            assertThat(transport.setReadBudget(idOf(transport, light), LIGHT_BUDGET)).isTrue();
            large = GiopClient.request12(1, key, "echoBytes", GiopClient.bytesArg(new byte[4 << 20]), true);
            heavy.send(Arrays.copyOf(large, 1 << 20));
            for (int i = 0; i < 200 && transport.stats().bytesRead() < (1 << 20); i++) {
                Thread.sleep(10);
            }
        }

        @Override
        public void close() throws Exception {
            try (GiopClient h = heavy; GiopClient l = light) {
                // closes both
            }
        }
    }

    /**
     * Starts a 4 MB request on the heavy connection and sends only its first 1 MB, then sends five
     * small requests on the light connection and checks each is answered.
     *
     * @return the transport's read deferrals over the five small requests
     */
    private long smallRequestsBehindAHalfReadLargeOne(String maxDeferMillis) throws Exception {
        try (HalfReadLargeRequest r = new HalfReadLargeRequest(maxDeferMillis)) {
            byte[] key = r.key;
            IrmiTransport transport = r.transport;
            GiopClient heavy = r.heavy;
            GiopClient light = r.light;
            byte[] large = r.large;
            long before = transport.stats().readDeferrals();
            for (int id = 10; id < 15; id++) {
                light.send(GiopClient.request12(id, key, "echoString", GiopClient.stringArg("x" + id), true));
                byte[] reply = light.readMessage();
                assertThat(GiopClient.requestIdOfReply(reply)).isEqualTo(id);
                assertThat(GiopClient.stringResult(reply)).isEqualTo("x" + id);
            }
            long deferrals = transport.stats().readDeferrals() - before;
            heavy.send(Arrays.copyOfRange(large, 1 << 20, large.length));
            heavy.socket.setSoTimeout(20_000);
            assertThat(GiopClient.bytesResultLength(heavy.readMessage())).isEqualTo(4 << 20);
            return deferrals;
        }
    }

    @Test
    void shouldDeferTheLighterConnectionButStillAnswerItWhenAHeavierOneIsMidMessage() throws Exception {
        // The first small request is read at once and costs the light connection 128 KiB of credit; the heavy
        // client sends nothing more, so the light one earns nothing back: each later request waits for the
        // bound (20 ms) and is then read and answered.
        assertThat(smallRequestsBehindAHalfReadLargeOne("20")).isGreaterThanOrEqualTo(4);
    }

    @Test
    void shouldReadTheDeferredConnectionWhenTheHeavierMessageCompletesLongBeforeTheBound() throws Exception {
        try (HalfReadLargeRequest r = new HalfReadLargeRequest("60000")) {
            byte[] key = r.key;
            IrmiTransport transport = r.transport;
            GiopClient heavy = r.heavy;
            GiopClient light = r.light;
            byte[] large = r.large;
            light.send(GiopClient.request12(10, key, "echoString", GiopClient.stringArg("first"), true));
            assertThat(GiopClient.stringResult(light.readMessage())).isEqualTo("first"); // in credit: read at once
            long before = transport.stats().readDeferrals();
            light.send(GiopClient.request12(11, key, "echoString", GiopClient.stringArg("second"), true));
            for (int i = 0; i < 200 && transport.stats().readDeferrals() == before; i++) {
                Thread.sleep(10);
            }
            assertThat(transport.stats().readDeferrals()).isGreaterThan(before); // in debt: waits behind the heavy

            heavy.send(Arrays.copyOfRange(large, 1 << 20, large.length));

            // The heavy message completes, so the light request is read then, not after the 60 s bound.
            light.socket.setSoTimeout(10_000);
            assertThat(GiopClient.stringResult(light.readMessage())).isEqualTo("second");
            heavy.socket.setSoTimeout(20_000);
            assertThat(GiopClient.bytesResultLength(heavy.readMessage())).isEqualTo(4 << 20);
        }
    }

    @Test
    void shouldKeepTheLighterConnectionToItsWeightWhileTheHeavierOneMakesProgress() throws Exception {
        // The heavy client sends the other 3 MB of its request in 64 KiB pieces every 10 ms (about 0.5 s),
        // so it is never stalled for the 50 ms bound. The light one (budget 1/64 of the heavy's) asks one
        // small request at a time. Its first is read at once and costs it 128 KiB of credit; 3 MB of the
        // heavy's bytes earn it back 48 KiB, so its weight gives it no further request until the heavy
        // message is complete. A flat 50 ms bound read it every 50 ms: about ten requests in that time.
        try (HalfReadLargeRequest r = new HalfReadLargeRequest("50")) {
            AtomicBoolean heavySent = new AtomicBoolean();
            AtomicInteger answeredWhileHeavySends = new AtomicInteger();
            AtomicInteger answered = new AtomicInteger();
            AtomicReference<Throwable> lightFailure = new AtomicReference<>();
            Thread lightCalls = new Thread(() -> {
                try {
                    r.light.socket.setSoTimeout(20_000);
                    for (int id = 10; !heavySent.get() && id < 1_000; id++) {
                        r.light.send(GiopClient.request12(id, r.key, "echoString", GiopClient.stringArg("x" + id), true));
                        byte[] reply = r.light.readMessage();
                        assertThat(GiopClient.requestIdOfReply(reply)).isEqualTo(id);
                        answered.incrementAndGet();
                        if (!heavySent.get()) {
                            answeredWhileHeavySends.incrementAndGet();
                        }
                    }
                } catch (Throwable t) {
                    lightFailure.set(t);
                }
            }, "light-calls");
            lightCalls.start();
            int piece = 64 * 1024;
            int at = 1 << 20;
            for (; at + piece < r.large.length; at += piece) {
                r.heavy.send(Arrays.copyOfRange(r.large, at, at + piece));
                Thread.sleep(10);
            }
            heavySent.set(true); // answers from here on may follow the end of the heavy message
            r.heavy.send(Arrays.copyOfRange(r.large, at, r.large.length));
            r.heavy.socket.setSoTimeout(20_000);
            assertThat(GiopClient.bytesResultLength(r.heavy.readMessage())).isEqualTo(4 << 20);
            lightCalls.join(20_000);
            assertThat(lightFailure.get()).isNull();
            assertThat(answered.get()).isGreaterThanOrEqualTo(1); // the light client is served
            assertThat(answeredWhileHeavySends.get()).isLessThanOrEqualTo(3);
        }
    }

    @Test
    void shouldReadTheLighterConnectionAtOnceWhenPacingIsOff() throws Exception {
        assertThat(smallRequestsBehindAHalfReadLargeOne("0")).isZero();
    }
}
