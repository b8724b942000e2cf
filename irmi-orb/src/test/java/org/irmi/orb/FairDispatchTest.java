package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import irmitest.Echo;
import irmitest.EchoHelper;

import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

/**
 * Requests waiting for a slot are dispatched in fair order across connections
 * ({@code FairScheduler}), not in the order they were read: a client with one request in flight
 * goes ahead of a client that pipelines many. Real sockets, real JacORB on both sides.
 */
class FairDispatchTest {

    /** Runs one request at a time: one slot, one POA thread. */
    private static final String[] ONE_SLOT = {"irmi.transport.max_requests_in_flight", "1",
        "jacorb.poa.thread_pool_min", "1", "jacorb.poa.thread_pool_max", "1"};

    /** Logs the order in which requests run. */
    static final class LoggingServant extends EchoServant {
        final List<String> ran = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch firstSleep = new CountDownLatch(1);

        @Override
        public String echoString(String s) {
            ran.add("echo " + s);
            return s;
        }

        @Override
        public int sleepMillis(int millis) {
            ran.add("sleep");
            firstSleep.countDown();
            return super.sleepMillis(millis);
        }
    }

    @Test
    void shouldRunAOneRequestClientsCallBeforeThePipelinedRequestsOfAnother() throws Exception {
        ORB server = Orbs.irmi(ONE_SLOT);
        ORB client = Orbs.stock();
        LoggingServant servant = new LoggingServant();
        String ior = Orbs.serve(server, servant);
        IrmiTransport transport = Orbs.transport(server);
        try (GiopClient flood = new GiopClient(transport.port())) {
            flood.socket.setSoTimeout(30_000);
            byte[] key = GiopClient.objectKey(server.string_to_object(ior));
            byte[] twoHundredMillis = {0, 0, 0, (byte) 200}; // sleepMillis(200): an IDL long, big-endian
            ByteArrayOutputStream four = new ByteArrayOutputStream();
            for (int id = 1; id <= 4; id++) {
                four.write(GiopClient.request12(id, key, "sleepMillis", twoHundredMillis, true));
            }
            flood.send(four.toByteArray());
            assertThat(servant.firstSleep.await(10, TimeUnit.SECONDS)).as("the first pipelined request runs").isTrue();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (transport.stats().requestsWaiting() < 3 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(transport.stats().requestsWaiting()).as("the other three wait for the one slot").isEqualTo(3);
            assertThat(transport.stats().requestsInFlight()).isEqualTo(1);

            // no _is_a round trip: the client's first request on its connection is this call
            Echo echo = EchoHelper.unchecked_narrow(client.string_to_object(ior));
            assertThat(echo.echoString("one")).isEqualTo("one");

            for (int i = 1; i <= 4; i++) {
                assertThat(GiopClient.replyStatus(flood.readMessage())).as("reply %d of the pipelining client", i).isZero();
            }
            // In read order (one FIFO) the call would have run fifth, after 600 ms more of sleeps.
            assertThat(servant.ran).containsExactly("sleep", "echo one", "sleep", "sleep", "sleep");
            assertThat(transport.stats().requestsWaiting()).isZero();
        } finally {
            Orbs.destroy(client, server);
        }
    }
}
