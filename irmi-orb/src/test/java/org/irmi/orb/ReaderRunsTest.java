package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import irmitest.Echo;
import irmitest.EchoHelper;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.CORBA.ORB;

/**
 * Cheap requests of closed-loop clients run on the reader thread ({@code irmi.transport.inline_max_cost_us},
 * {@code InlineRuns}), and a request that holds the reader has a new thread take over the reading:
 * other clients go on being served, and a servant that calls its own server does not deadlock it.
 * Real ORBs on loopback, stock JacORB clients.
 */
@Timeout(60)
class ReaderRunsTest {

    private final CountDownLatch blocked = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch spinning = new CountDownLatch(1);

    private ORB server;
    private ORB client;
    private ORB other;
    /** The server's own client ORB, for a servant that calls its server. */
    private ORB inner;

    @AfterEach
    void tearDown() {
        release.countDown();
        Orbs.destroy(inner, other, client, server);
    }

    /** Tells where it runs, blocks, or calls another object through {@code inner}. */
    private final class Probe extends EchoServant {
        @Override
        public String echoString(String s) {
            if (s.equals("thread")) {
                return Thread.currentThread().getName();
            }
            if (s.equals("spin")) { // computes 30 ms: keeps the reader busy, never blocked
                spinning.countDown();
                long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(30);
                long x = 0;
                while (System.nanoTime() < end) {
                    x += System.identityHashCode(this) ^ x;
                }
                return x == 42 ? "" : Thread.currentThread().getName();
            }
            if (s.equals("block")) {
                blocked.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return Thread.currentThread().getName();
            }
            if (s.startsWith("call ")) {
                Echo target = EchoHelper.narrow(inner.string_to_object(s.substring(5)));
                return "called: " + target.echoString("inner");
            }
            return s;
        }
    }

    /**
     * An I-RMI server where requests that took up to 5 ms run on the reader: this class is about what
     * happens then, not about the default limit (100 us), which a test JVM's servants, before the JIT has
     * compiled them, may take longer than.
     */
    private Echo serve() {
        return serve("irmi.transport.inline_max_cost_us", "5000");
    }

    private Echo serve(String... extra) {
        server = Orbs.irmi(extra);
        client = Orbs.stock();
        return EchoHelper.narrow(client.string_to_object(Orbs.serve(server, new Probe())));
    }

    /**
     * Enough calls for the connection's cost estimate to fall from its first requests (the code
     * set negotiation on JacORB's path, class loading: up to a second in a cold JVM) below the limit:
     * it moves by an eighth per request, so 100 requests take it below a millionth of where it was.
     */
    private static void warmUp(Echo echo) {
        for (int i = 0; i < 100; i++) {
            assertThat(echo.echoString("warm-up " + i)).isEqualTo("warm-up " + i);
        }
    }

    /**
     * A turn that collects many cheap requests is shared with the workers. To have one turn collect them all,
     * a request of another connection keeps the reader computing (not blocked: no takeover) while they arrive.
     */
    @Test
    void shouldShareATurnOfManyCheapRequestsWithTheWorkers() throws Exception {
        int n = 12;
        serve("irmi.transport.inline_max_cost_us", "5000", "irmi.transport.inline_share_at", "4");
        String ior = Orbs.serve(server, new Probe());
        byte[] key = GiopClient.objectKey(client.string_to_object(ior));
        int port = Orbs.transport(server).port();
        GiopClient[] callers = new GiopClient[n + 1];
        try {
            for (int c = 0; c <= n; c++) {
                callers[c] = new GiopClient(port);
                // the first request negotiates the code sets; then enough to bring the cost estimate down
                call(callers[c], 1, key, "warm-up", GiopClient.codeSetsContext(0x00010001, 0x00010109));
                for (int i = 2; i < 60; i++) {
                    call(callers[c], i, key, "warm-up", new byte[4]);
                }
            }
            long sharedBefore = stats().readerShared();
            callers[n].send(GiopClient.request12(100, key, "echoString", GiopClient.stringArg("spin"), true));
            assertThat(spinning.await(10, TimeUnit.SECONDS)).isTrue();
            for (int c = 0; c < n; c++) { // all arrive while the reader computes
                callers[c].send(GiopClient.request12(100, key, "echoString", GiopClient.stringArg("thread"), true));
            }
            int onReader = 0;
            for (int c = 0; c < n; c++) {
                String ranOn = GiopClient.stringResult(callers[c].readMessage());
                if (ranOn.equals(IrmiTransport.READER_THREAD_NAME)) {
                    onReader++;
                }
            }
            assertThat(GiopClient.stringResult(callers[n].readMessage())).isEqualTo(IrmiTransport.READER_THREAD_NAME);

            int cores = Runtime.getRuntime().availableProcessors();
            int keep = cores > 1 ? (n + cores - 1) / cores : n;
            assertThat(onReader).as("the reader keeps one core's share of the turn").isEqualTo(keep);
            assertThat(stats().readerShared() - sharedBefore).isEqualTo(n - keep);
            assertThat(stats().readerTakeovers()).isZero();
        } finally {
            for (GiopClient g : callers) {
                if (g != null) {
                    g.close();
                }
            }
        }
    }

    private static void call(GiopClient g, int id, byte[] key, String s, byte[] contexts) throws Exception {
        g.send(GiopClient.request12(id, key, "echoString", GiopClient.stringArg(s), true, contexts));
        assertThat(GiopClient.stringResult(g.readMessage())).isEqualTo(s);
    }

    private TransportStats stats() {
        return Orbs.transport(server).stats();
    }

    @Test
    void shouldRunTheCheapRequestsOfAClosedLoopClientOnTheReaderThread() {
        Echo echo = serve();
        warmUp(echo);
        long runsBefore = stats().readerRuns();
        long directBefore = stats().directRequests();

        for (int i = 0; i < 20; i++) {
            assertThat(echo.echoString("thread")).isEqualTo(IrmiTransport.READER_THREAD_NAME);
        }
        assertThat(stats().readerRuns() - runsBefore).isEqualTo(20);
        assertThat(stats().directRequests() - directBefore).isEqualTo(20);
        assertThat(stats().readerTakeovers()).isZero();
    }

    @Test
    void shouldRunEveryRequestOnAWorkerWhenTurnedOff() {
        Echo echo = serve("irmi.transport.inline_max_cost_us", "0");
        warmUp(echo);

        assertThat(echo.echoString("thread")).startsWith("irmi-dispatch-");
        assertThat(stats().readerRuns()).isZero();
        assertThat(Threads.named("irmi-reader-watch")).isZero();
    }

    @Test
    void shouldHandTheReadingToANewThreadWhileARequestHoldsTheReader() throws Exception {
        Echo echo = serve();
        warmUp(echo);
        assertThat(echo.echoString("thread")).isEqualTo(IrmiTransport.READER_THREAD_NAME);
        other = Orbs.stock();
        Echo second = EchoHelper.narrow(other.string_to_object(client.object_to_string(echo)));

        CompletableFuture<String> held = CompletableFuture.supplyAsync(() -> echo.echoString("block"));
        assertThat(blocked.await(10, TimeUnit.SECONDS)).isTrue();

        // another client is served while the first request still holds the thread it ran on
        assertThat(second.echoString("served")).isEqualTo("served");
        assertThat(held).isNotDone();
        assertThat(stats().readerTakeovers()).isEqualTo(1);
        assertThat(Threads.named(IrmiTransport.READER_THREAD_NAME)).isEqualTo(1);
        assertThat(Threads.named(IrmiTransport.READER_THREAD_NAME + "-held")).isEqualTo(1);
        // during the back-off, requests go to the workers
        assertThat(second.echoString("thread")).startsWith("irmi-dispatch-");

        release.countDown();
        assertThat(held.get(10, TimeUnit.SECONDS)).isEqualTo(IrmiTransport.READER_THREAD_NAME + "-held");
        // the held thread ended once its request was answered; one reader remains, and it serves
        awaitNoThread(IrmiTransport.READER_THREAD_NAME + "-held");
        assertThat(Threads.named(IrmiTransport.READER_THREAD_NAME)).isEqualTo(1);
        assertThat(echo.echoString("after")).isEqualTo("after");
        assertThat(stats().readerTakeovers()).isEqualTo(1);
    }

    @Test
    void shouldNotDeadlockWhenAServantOnTheReaderCallsItsOwnServer() {
        Echo echo = serve();
        inner = Orbs.stock();
        String self = client.object_to_string(echo);
        warmUp(echo);
        assertThat(echo.echoString("thread")).isEqualTo(IrmiTransport.READER_THREAD_NAME);

        // the inner request reaches the server on a connection that only a reader can read, while
        // the outer one holds the reader: a new reader reads it
        assertThat(echo.echoString("call " + self)).isEqualTo("called: inner");
        assertThat(stats().readerTakeovers()).isEqualTo(1);
        assertThat(echo.echoString("still served")).isEqualTo("still served");
    }

    private static void awaitNoThread(String name) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (Threads.named(name) > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(Threads.named(name)).isZero();
    }
}
