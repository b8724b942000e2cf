package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import irmitest.Echo;
import irmitest.EchoHelper;

import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

/**
 * Each connection's fair share of the requests in flight: a client that pipelines requests faster
 * than the servants run them waits in its own socket, and fills neither the POA queue nor the
 * other clients' way.
 */
class RequestShareTest {

    private static final int PIPELINED = 600;
    /**
     * A POA queue far shorter than the flood: without a share, most of the flood is refused with
     * TRANSIENT. {@code queue_wait} on: the flood's requests beyond it wait ({@link PoaQueueLimitsTest}
     * shows it off, where they are refused).
     */
    private static final String[] SMALL_POA = {"jacorb.poa.queue_max", "100", "jacorb.poa.queue_wait", "on",
        "jacorb.poa.thread_pool_min", "2", "jacorb.poa.thread_pool_max", "2"};

    @Test
    void shouldKeepAFloodersRequestsInItsOwnSocketSoThatNoRequestIsRefused() throws Exception {
        ORB server = Orbs.irmi(SMALL_POA);
        ORB client = Orbs.irmi();
        String ior = Orbs.serve(server, new EchoServant());
        try (GiopClient flood = new GiopClient(Orbs.transport(server).port())) {
            Echo echo = EchoHelper.narrow(client.string_to_object(ior));
            byte[] key = GiopClient.objectKey(client.string_to_object(ior));
            flood.socket.setSoTimeout(30_000);
            AtomicInteger answered = new AtomicInteger();
            List<String> notAnswered = new ArrayList<>();
            AtomicReference<Throwable> drainFailure = new AtomicReference<>();
            Thread drain = new Thread(() -> {
                try {
                    for (int i = 0; i < PIPELINED; i++) {
                        byte[] reply = flood.readMessage();
                        if (GiopClient.replyStatus(reply) == 0) {
                            answered.incrementAndGet();
                        } else {
                            synchronized (notAnswered) {
                                notAnswered.add(GiopClient.requestIdOfReply(reply) + ": " + GiopClient.exceptionId(reply));
                            }
                        }
                    }
                } catch (Throwable e) {
                    drainFailure.set(e);
                }
            }, "flood-drain");
            drain.start();
            byte[] oneMilli = {0, 0, 0, 1}; // sleepMillis(1): an IDL long, big-endian
            flood.send(GiopClient.pipelined(PIPELINED, key, "sleepMillis", oneMilli));

            // A well-behaved client beside the flood gets every answer.
            for (int i = 0; i < 20; i++) {
                assertThat(echo.echoString("beside " + i)).isEqualTo("beside " + i);
            }
            drain.join(60_000);
            assertThat(drain.isAlive()).as("the flood's replies still being read after 60 s").isFalse();
            assertThat(drainFailure.get()).as("reading the flood's replies").isNull();
            assertThat(notAnswered).as("flood requests refused").isEmpty();
            assertThat(answered.get()).isEqualTo(PIPELINED);
            TransportStats stats = Orbs.transport(server).stats();
            assertThat(stats.sharePauses()).as("times the flooding connection was paused at its share").isPositive();
            assertThat(stats.handoffRejections()).isZero();
        } finally {
            Orbs.destroy(client, server);
        }
    }

    @Test
    void shouldEndRequestsThatNoServantRunsWhenTheirReplyIsWritten() throws Exception {
        // Requests for an object that does not exist are answered by JacORB's POA without a servant:
        // their reply ends them. Were they still counted, the connection would stay paused at its
        // share (8 here) and the later requests would never be read.
        ORB server = Orbs.irmi(SMALL_POA);
        String ior = Orbs.serve(server, new EchoServant());
        try (GiopClient c = new GiopClient(Orbs.transport(server).port())) {
            byte[] key = GiopClient.objectKey(server.string_to_object(ior));
            byte[] unknown = key.clone();
            unknown[unknown.length - 1] ^= 0x55;
            c.send(GiopClient.pipelined(200, unknown, "echoString", GiopClient.stringArg("x")));
            for (int i = 1; i <= 200; i++) {
                byte[] reply = c.readMessage();
                assertThat(GiopClient.replyStatus(reply)).as("reply status of request %d", i).isEqualTo(2);
                assertThat(GiopClient.exceptionId(reply)).contains("OBJECT_NOT_EXIST");
            }
            c.send(GiopClient.request12(201, key, "echoString", GiopClient.stringArg("still read"), true));
            byte[] reply = c.readMessage();
            assertThat(GiopClient.requestIdOfReply(reply)).isEqualTo(201);
            assertThat(GiopClient.stringResult(reply)).isEqualTo("still read");
        } finally {
            Orbs.destroy(server);
        }
    }
}
