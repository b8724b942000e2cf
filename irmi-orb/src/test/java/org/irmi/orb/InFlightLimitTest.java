package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;

import irmitest.Echo;
import irmitest.EchoHelper;

import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

/**
 * The requests in flight follow what keeps the cores busy ({@code CoreLimit}): few for servants
 * that only compute, the configured maximum for servants that block. Real ORBs, real sockets.
 */
class InFlightLimitTest {

    /** Above what computing servants need on any machine this runs on, below what blocking ones ask for. */
    private static final int MAX = 100;

    @Test
    void shouldLowerTheLimitForComputingServantsAndRaiseItForBlockingOnes() throws Exception {
        boolean linux = System.getProperty("os.name").startsWith("Linux");
        assertThat(Files.isReadable(Path.of("/proc/thread-self/schedstat")))
                .as("scheduler statistics (/proc/thread-self/schedstat), which the limit needs, on Linux only").isEqualTo(linux);
        ORB server = Orbs.irmi("irmi.transport.max_requests_in_flight", Integer.toString(MAX),
                "irmi.transport.sweep_interval_ms", "100");
        ORB client = Orbs.irmi();
        ORB other = Orbs.irmi();
        try {
            String ior = Orbs.serve(server, new EchoServant());
            // two connections: the limit shares the cores between connections (a lone one is not held)
            Echo[] echoes = {EchoHelper.narrow(client.string_to_object(ior)), EchoHelper.narrow(other.string_to_object(ior))};
            AtomicInteger turn = new AtomicInteger();
            IrmiTransport transport = Orbs.transport(server);
            assertThat(transport.stats().requestsLimit()).as("before any sample").isEqualTo(MAX);

            if (!linux) {
                for (int i = 0; i < 2_000; i++) {
                    echoes[i % 2].echoString("x");
                }
                assertThat(transport.stats().requestsLimit()).as("nothing sampled: the configured maximum").isEqualTo(MAX);
                return;
            }
            int cores = Runtime.getRuntime().availableProcessors();
            // echoString only computes: about cores * 1 needed, + cores ready to start. Four threads share two
            // connections, which now and then drain: in a sweep that saw such light requests, light_reserve_cores
            // of the cores are kept for them, and the limit may be as low as the other cores' share
            int lowest = Math.max(1, cores - org.irmi.orb.internal.TransportConfig.DEFAULT_LIGHT_RESERVE_CORES);
            assertThat(loadUntil(transport, 4, () -> echoes[turn.incrementAndGet() & 1].echoString("x"), limit -> limit < MAX))
                    .as("limit with computing servants").isBetween(lowest, 4 * cores);
            // sleepMillis(20) blocks for 20 ms per some 50 us of CPU: cores * 400 needed, capped at MAX
            assertThat(loadUntil(transport, 8, () -> echoes[turn.incrementAndGet() & 1].sleepMillis(20), limit -> limit == MAX))
                    .as("limit with blocking servants").isEqualTo(MAX);
        } finally {
            Orbs.destroy(client, other, server);
        }
    }

    @Test
    void shouldNotHoldALoneConnectionBackAndLimitItAgainWhenAnotherConnectionCalls() throws Exception {
        assertThat(Files.isReadable(Path.of("/proc/thread-self/schedstat")))
                .as("scheduler statistics (/proc/thread-self/schedstat), which the limit needs: run on Linux").isTrue();
        ORB server = Orbs.irmi("irmi.transport.max_requests_in_flight", Integer.toString(MAX),
                "irmi.transport.sweep_interval_ms", "100");
        ORB client = Orbs.irmi();
        ORB other = Orbs.irmi();
        try {
            String ior = Orbs.serve(server, new EchoServant());
            Echo lone = EchoHelper.narrow(client.string_to_object(ior));
            Echo second = EchoHelper.narrow(other.string_to_object(ior));
            IrmiTransport transport = Orbs.transport(server);
            int cores = Runtime.getRuntime().availableProcessors();
            // One connection, eight threads computing: nobody to share the cores with, so the limit stays the
            // maximum while the samples say cores + ready would do (the second part shows they do).
            AtomicInteger seenBelow = new AtomicInteger();
            long calls = callFor(8, () -> lone.echoString("x"), 1_500, () -> {
                if (transport.stats().requestsLimit() < MAX) {
                    seenBelow.incrementAndGet();
                }
            });
            assertThat(calls).as("calls made").isGreaterThan(100);
            assertThat(seenBelow.get()).as("looks at a limit below the maximum, one connection calling").isZero();
            // A second connection calls beside it: the limit is back (computing servants: at most 4 * cores).
            assertThat(loadUntil(transport, 4, () -> (Thread.currentThread().getName().endsWith("0") ? second : lone)
                    .echoString("x"), limit -> limit < MAX)).as("limit with two connections calling").isBetween(1, 4 * cores);
        } finally {
            Orbs.destroy(client, other, server);
        }
    }

    /** Calls {@code call} from {@code threads} threads for {@code millis}, running {@code look} every 20 ms; returns the calls made. */
    private static long callFor(int threads, Runnable call, long millis, Runnable look) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        java.util.concurrent.atomic.AtomicLong made = new java.util.concurrent.atomic.AtomicLong();
        List<Thread> callers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                while (!stop.get()) {
                    call.run();
                    made.incrementAndGet();
                }
            }, "caller-" + i);
            t.start();
            callers.add(t);
        }
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < end) {
            look.run();
            Thread.sleep(20);
        }
        stop.set(true);
        for (Thread t : callers) {
            t.join(10_000);
        }
        return made.get();
    }

    @Test
    void shouldHoldNoRequestsReadyToStartWhileAClosedLoopClientCalls() throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        withClosedLoopBeside((shared, transport) ->
                // echoString only computes: about cores * 1 needed, and nothing more while light requests arrive
                assertThat(loadUntil(transport, 4, () -> shared.echoString("x"), limit -> limit < 2 * cores))
                        .as("limit with a closed-loop client beside, no core kept").isBetween(cores, 2 * cores - 1),
                "irmi.transport.light_requests_first", "true", "irmi.transport.light_reserve_cores", "0");
        withClosedLoopBeside((shared, transport) ->
                // the same load with light_requests_first=false: one request per core ready to start, always
                assertThat(loadUntil(transport, 4, () -> shared.echoString("x"), limit -> limit < MAX))
                        .as("limit with light_requests_first=false").isBetween(2 * cores, 4 * cores),
                "irmi.transport.light_requests_first", "false", "irmi.transport.light_reserve_cores", "0");
    }

    @Test
    void shouldKeepACoreForAClosedLoopClientByDefault() throws Exception {
        // without the reserve the limit never goes below the cores (light_reserve_cores=0, above); with the
        // default of one core kept, a window whose requests only computed gives the pipelining connection
        // cores - 1 slots (at least one)
        int expected = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
        withClosedLoopBeside((shared, transport) ->
                assertThat(loadUntil(transport, 4, () -> shared.echoString("x"), limit -> limit <= expected))
                        .as("limit with a closed-loop client beside and, by default, one core kept for it").isEqualTo(expected));
    }

    /** What a test does to a server while a closed-loop client calls it: load it through {@code shared}, read {@code transport}. */
    private interface Beside {
        void run(Echo shared, IrmiTransport transport) throws Exception;
    }

    /**
     * Runs {@code body} against an I-RMI server (in-flight maximum {@link #MAX}, 100 ms windows, and
     * {@code serverSettings}) while a client of its own calls it one call at a time; {@code body}'s
     * {@code shared} is a second client's stub, one connection for all the threads that use it.
     */
    private static void withClosedLoopBeside(Beside body, String... serverSettings) throws Exception {
        assertThat(Files.isReadable(Path.of("/proc/thread-self/schedstat")))
                .as("scheduler statistics (/proc/thread-self/schedstat), which the limit needs: run on Linux").isTrue();
        List<String> settings = new ArrayList<>(List.of("irmi.transport.max_requests_in_flight", Integer.toString(MAX),
                "irmi.transport.sweep_interval_ms", "100"));
        settings.addAll(List.of(serverSettings));
        ORB server = Orbs.irmi(settings.toArray(String[]::new));
        ORB pipelining = Orbs.irmi();
        ORB closedLoop = Orbs.irmi();
        AtomicBoolean stop = new AtomicBoolean();
        Thread light = null;
        try {
            String ior = Orbs.serve(server, new EchoServant());
            Echo shared = EchoHelper.narrow(pipelining.string_to_object(ior));
            Echo alone = EchoHelper.narrow(closedLoop.string_to_object(ior));
            alone.echoString("x");
            light = new Thread(() -> {
                while (!stop.get()) {
                    alone.echoString("x");
                }
            }, "closed-loop");
            light.start();
            body.run(shared, Orbs.transport(server));
        } finally {
            stop.set(true);
            if (light != null) {
                light.join(10_000);
            }
            Orbs.destroy(closedLoop, pipelining, server);
        }
    }

    /** Calls {@code call} from {@code threads} threads until the limit satisfies {@code done} (at most 20 s); returns it. */
    private static int loadUntil(IrmiTransport transport, int threads, Runnable call, IntPredicate done) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> callers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                while (!stop.get()) {
                    call.run();
                }
            }, "caller-" + i);
            t.start();
            callers.add(t);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        int limit = transport.stats().requestsLimit();
        while (!done.test(limit) && System.nanoTime() < deadline) {
            Thread.sleep(20);
            limit = transport.stats().requestsLimit();
        }
        stop.set(true);
        for (Thread t : callers) {
            t.join(10_000);
        }
        return limit;
    }
}
