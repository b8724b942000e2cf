package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import irmitest.Echo;
import irmitest.EchoHelper;

import org.irmi.isolation.MinorCodes;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

/**
 * JacORB's POA queue settings where requests wait in I-RMI for a servant thread: with
 * {@code queue_wait} off, the requests of a connection holding its share beyond {@code queue_max}
 * are refused with {@code TRANSIENT} (JacORB's {@code QueueNoWaitTest}); with {@code threadtimeout},
 * a request for which no servant thread frees in that time gets {@code TIMEOUT} (JacORB's
 * {@code POAThreadingTest}), on both request paths. Real sockets, stock JacORB and raw GIOP clients.
 */
class PoaQueueLimitsTest {

    private static final int PIPELINED = 300;

    @Test
    void shouldRefuseTheFloodersRequestsBeyondQueueMaxWithTransientAndServeTheOthers() throws Exception {
        ORB server = Orbs.irmi("jacorb.poa.queue_max", "10", "jacorb.poa.queue_wait", "off",
                "jacorb.poa.thread_pool_min", "2", "jacorb.poa.thread_pool_max", "2");
        ORB client = Orbs.stock();
        String ior = Orbs.serve(server, new EchoServant());
        try (GiopClient flood = new GiopClient(Orbs.transport(server).port())) {
            Echo echo = EchoHelper.narrow(client.string_to_object(ior));
            byte[] key = GiopClient.objectKey(client.string_to_object(ior));
            flood.socket.setSoTimeout(30_000);
            flood.send(GiopClient.pipelined(PIPELINED, key, "sleepMillis", new byte[] {0, 0, 0, 5}));
            for (int i = 0; i < 10; i++) {
                assertThat(echo.echoString("beside " + i)).isEqualTo("beside " + i);
            }
            Map<String, Integer> outcomes = new HashMap<>();
            for (int i = 0; i < PIPELINED; i++) {
                byte[] reply = flood.readMessage();
                String outcome = GiopClient.replyStatus(reply) == 0 ? "reply" : GiopClient.exceptionId(reply)
                        + " minor " + MinorCodes.name(GiopClient.exceptionMinor(reply));
                outcomes.merge(outcome, 1, Integer::sum);
            }
            assertThat(outcomes.keySet()).as("flood outcomes %s", outcomes)
                    .containsExactlyInAnyOrder("reply", "IDL:omg.org/CORBA/TRANSIENT:1.0 minor POA_QUEUE_FULL");
            assertThat(Orbs.transport(server).stats().poaQueueRefusals())
                    .isEqualTo(outcomes.get("IDL:omg.org/CORBA/TRANSIENT:1.0 minor POA_QUEUE_FULL").longValue());
            assertThat(echo.echoString("after")).isEqualTo("after");
        } finally {
            Orbs.destroy(client, server);
        }
    }

    @Test
    void shouldLetTheFloodWaitInItsSocketWhenQueueWaitIsOn() throws Exception {
        ORB server = Orbs.irmi("jacorb.poa.queue_max", "10", "jacorb.poa.queue_wait", "on",
                "jacorb.poa.thread_pool_min", "2", "jacorb.poa.thread_pool_max", "2");
        String ior = Orbs.serve(server, new EchoServant());
        try (GiopClient flood = new GiopClient(Orbs.transport(server).port())) {
            byte[] key = GiopClient.objectKey(server.string_to_object(ior));
            flood.socket.setSoTimeout(30_000);
            flood.send(GiopClient.pipelined(PIPELINED, key, "sleepMillis", new byte[] {0, 0, 0, 1}));
            for (int i = 0; i < PIPELINED; i++) {
                assertThat(GiopClient.replyStatus(flood.readMessage())).as("reply %d", i).isZero();
            }
            assertThat(Orbs.transport(server).stats().poaQueueRefusals()).isZero();
        } finally {
            Orbs.destroy(server);
        }
    }

    @Test
    void shouldAnswerTimeoutWhenNoServantThreadFreesWithinThreadTimeout() throws Exception {
        // the third request waits in I-RMI (the in-flight limit defaults to thread_pool_max): I-RMI answers
        assertTimeoutWhilePoolBusy(MinorCodes.POA_THREAD_TIMEOUT, "irmi.transport.direct_dispatch", "on");
    }

    @Test
    void shouldAnswerTimeoutWhenNoServantThreadFreesWithinThreadTimeoutWithoutTheDirectPath() throws Exception {
        assertTimeoutWhilePoolBusy(MinorCodes.POA_THREAD_TIMEOUT, "irmi.transport.direct_dispatch", "off");
    }

    @Test
    void shouldLetThePoaAnswerTimeoutWhenTheInFlightLimitIsAboveThePool() throws Exception {
        // the third request is admitted and finds both of the POA's processors held by servants run on
        // the direct path: it waits in the POA's queue, and JacORB's pool answers TIMEOUT (minor 0)
        assertTimeoutWhilePoolBusy(0, "irmi.transport.max_requests_in_flight", "16");
    }

    /**
     * JacORB's POA keeps counting a request whose pool answered {@code TIMEOUT} as running, until another
     * request to the object passes through the POA. Here the client keeps its connection, so its next
     * request takes the direct path and never does: {@code shutdown(true)} must still return.
     */
    @Test
    void shouldShutDownAfterThePoolAnsweredTimeoutToAClientThatKeepsItsConnection() throws Exception {
        ORB server = Orbs.irmi("jacorb.poa.thread_pool_min", "1", "jacorb.poa.thread_pool_max", "2",
                "jacorb.poa.threadtimeout", "1000", "irmi.transport.max_requests_in_flight", "16");
        ORB client = Orbs.stock();
        EchoServant servant = new EchoServant();
        String ior = Orbs.serve(server, servant);
        ExecutorService callers = Executors.newFixedThreadPool(2);
        try (GiopClient raw = new GiopClient(Orbs.transport(server).port())) {
            raw.socket.setSoTimeout(30_000);
            byte[] key = GiopClient.objectKey(client.string_to_object(ior));
            // its connection's first request negotiates the code sets (ISO-8859-1, UTF-16) on JacORB's path
            raw.send(GiopClient.request12(1, key, "echoString", GiopClient.stringArg("first"), true,
                    GiopClient.codeSetsContext(0x00010001, 0x00010109)));
            assertThat(GiopClient.stringResult(raw.readMessage())).isEqualTo("first");
            Echo echo = EchoHelper.narrow(client.string_to_object(ior));
            echo.echoString("warm");
            Future<Integer> first = callers.submit(() -> echo.sleepMillis(4000));
            Future<Integer> second = callers.submit(() -> echo.sleepMillis(4000));
            await("both servant threads held").atMost(Duration.ofSeconds(10)).until(() -> servant.sleeping() == 2);
            raw.send(GiopClient.request12(2, key, "echoString", GiopClient.stringArg("third"), true));
            byte[] refused = raw.readMessage();
            assertThat(GiopClient.replyStatus(refused)).isEqualTo(2); // SYSTEM_EXCEPTION
            assertThat(GiopClient.exceptionId(refused)).isEqualTo("IDL:omg.org/CORBA/TIMEOUT:1.0");
            assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo(4000);
            assertThat(second.get(30, TimeUnit.SECONDS)).isEqualTo(4000);
            long direct = Orbs.transport(server).stats().directRequests();
            raw.send(GiopClient.request12(3, key, "echoString", GiopClient.stringArg("after"), true));
            assertThat(GiopClient.stringResult(raw.readMessage())).isEqualTo("after");
            assertThat(Orbs.transport(server).stats().directRequests()).isEqualTo(direct + 1); // not through the POA
        } finally {
            callers.shutdownNow();
            Orbs.destroy(client);
        }
        Thread shutdown = new Thread(() -> server.shutdown(true), "test-shutdown");
        shutdown.setDaemon(true);
        shutdown.start();
        shutdown.join(20_000);
        assertThat(shutdown.isAlive()).as("ORB.shutdown(true) still waiting after 20 s").isFalse();
        server.destroy();
    }

    /** Two calls hold both servant threads for 4 s; a third, from the same client, must get TIMEOUT after 1 s. */
    private static void assertTimeoutWhilePoolBusy(int expectedMinor, String... settings) throws Exception {
        String[] props = {"jacorb.poa.thread_pool_min", "1", "jacorb.poa.thread_pool_max", "2",
            "jacorb.poa.threadtimeout", "1000"};
        ORB server = Orbs.irmi(java.util.stream.Stream.concat(java.util.Arrays.stream(props),
                java.util.Arrays.stream(settings)).toArray(String[]::new));
        ORB client = Orbs.stock();
        EchoServant servant = new EchoServant();
        String ior = Orbs.serve(server, servant);
        ExecutorService callers = Executors.newFixedThreadPool(2);
        try {
            Echo echo = EchoHelper.narrow(client.string_to_object(ior));
            echo.echoString("warm");
            Future<Integer> first = callers.submit(() -> echo.sleepMillis(4000));
            Future<Integer> second = callers.submit(() -> echo.sleepMillis(4000));
            await("both servant threads held").atMost(Duration.ofSeconds(10)).until(() -> servant.sleeping() == 2);
            long start = System.nanoTime();
            Throwable third = catchThrowable(() -> echo.echoString("third"));
            long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(third).isInstanceOf(org.omg.CORBA.TIMEOUT.class);
            assertThat(((org.omg.CORBA.TIMEOUT) third).minor).isEqualTo(expectedMinor);
            assertThat(waitedMillis).as("waited before TIMEOUT").isGreaterThanOrEqualTo(1000);
            assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo(4000);
            assertThat(second.get(30, TimeUnit.SECONDS)).isEqualTo(4000);
            assertThat(Orbs.transport(server).stats().poaThreadTimeouts()).isEqualTo(expectedMinor == 0 ? 0 : 1);
            assertThat(echo.echoString("after")).isEqualTo("after");
        } finally {
            callers.shutdownNow();
            Orbs.destroy(client, server);
        }
    }
}
