package org.irmi.orb.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The hand-over between a reader held by a request it runs itself and the reader that takes over:
 * every request of the turn runs exactly once, on one side or the other. Real threads, no ORB.
 */
@Timeout(30)
class InlineRunsTest {

    private final List<Integer> ranHere = new CopyOnWriteArrayList<>();
    private final List<Integer> handedOff = new CopyOnWriteArrayList<>();
    private final CountDownLatch holding = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch takenOver = new CountDownLatch(1);
    private final AtomicReference<Thread> newReader = new AtomicReference<>();
    private final java.util.concurrent.atomic.AtomicInteger wakes = new java.util.concurrent.atomic.AtomicInteger();
    private InlineRuns runs;

    @AfterEach
    void tearDown() {
        release.countDown();
        if (runs != null) {
            runs.stop();
        }
    }

    private static RequestAdmission.Task task(int id, long costNanos) {
        return new RequestAdmission.Task(null, new byte[0], Giop.REQUEST, id, true, "op", true, costNanos, 0);
    }

    /** Runs a task here; task 1 holds the thread until released. */
    private void run(RequestAdmission.Task t) {
        ranHere.add(t.requestId());
        if (t.requestId() == 1) {
            holding.countDown();
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** What the loop does on a takeover: a new thread whose first act is to take the turn's leftovers. */
    private void takeOver() {
        Thread t = new Thread(() -> {
            runs.takeLeftovers();
            takenOver.countDown();
        }, "new-reader");
        newReader.set(t);
        t.start();
    }

    /**
     * Runs the turn on a thread of its own, the "held-reader", and returns once task 1 holds it and the
     * watch has had a new reader take over; {@code stillReader} gets what {@code runTurn} returned.
     */
    private Thread runTurnUntilTakenOver(AtomicReference<Boolean> stillReader) throws InterruptedException {
        Thread reader = new Thread(() -> stillReader.set(runs.runTurn()), "held-reader");
        reader.start();
        assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(takenOver.await(10, TimeUnit.SECONDS)).isTrue();
        return reader;
    }

    @Test
    void shouldGiveTheRequestsNotStartedToTheNewReaderWhenOneHoldsTheReader() throws Exception {
        runs = new InlineRuns(100, 0, 2, this::run, t -> handedOff.add(t.requestId()), wakes::incrementAndGet, this::takeOver);
        runs.start();
        for (int i = 0; i < 4; i++) {
            runs.add(task(i, 0));
        }
        AtomicReference<Boolean> stillReader = new AtomicReference<>();
        Thread reader = runTurnUntilTakenOver(stillReader);
        assertThat(handedOff).containsExactly(2, 3);
        assertThat(runs.takeovers()).isEqualTo(1);

        release.countDown();
        reader.join(10_000);
        assertThat(stillReader.get()).isFalse();
        assertThat(ranHere).containsExactly(0, 1);
        assertThat(runs.ran()).isEqualTo(2); // tasks 0 and 1, which the reader started; 2 and 3 went to workers
    }

    @Test
    void shouldStopTakingRequestsForABackOffAfterATakeoverAndRunTheNextTurnOnTheNewReader() throws Exception {
        runs = new InlineRuns(100, 0, 2, this::run, t -> handedOff.add(t.requestId()), wakes::incrementAndGet, this::takeOver);
        runs.start();
        assertThat(runs.mayTake(50_000, false)).isTrue();
        assertThat(runs.mayTake(150_000, false)).isFalse(); // above 100 us: never
        runs.add(task(1, 0));
        Thread reader = new Thread(runs::runTurn, "held-reader");
        reader.start();
        assertThat(takenOver.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(runs.mayTake(50_000, false)).isFalse(); // the back-off

        // the new reader's turns run as before
        runs.add(task(5, 0));
        assertThat(runs.runTurn()).isTrue();
        assertThat(ranHere).containsExactly(1, 5);
        release.countDown();
        reader.join(10_000);
    }

    @Test
    void shouldRunAllOfATurnHereWhenItIsSmallerThanTheShareThreshold() {
        runs = new InlineRuns(100, 8, 2, this::run, t -> handedOff.add(t.requestId()), wakes::incrementAndGet, this::takeOver);
        for (int i = 2; i < 9; i++) {
            runs.add(task(i, 0));
        }

        assertThat(runs.runTurn()).isTrue();

        assertThat(ranHere).containsExactly(2, 3, 4, 5, 6, 7, 8);
        assertThat(handedOff).isEmpty();
        assertThat(wakes.get()).isZero();
    }

    @Test
    void shouldKeepOneCoresShareOfABigTurnAndHandTheRestOnWithOneWakeUp() {
        runs = new InlineRuns(100, 8, 3, this::run, t -> handedOff.add(t.requestId()), wakes::incrementAndGet, this::takeOver);
        for (int i = 2; i < 12; i++) { // 10 requests on 3 cores: 4 here, 6 to the workers
            runs.add(task(i, 0));
        }

        assertThat(runs.runTurn()).isTrue();

        assertThat(ranHere).containsExactly(2, 3, 4, 5);
        assertThat(handedOff).containsExactly(6, 7, 8, 9, 10, 11);
        assertThat(wakes.get()).isEqualTo(1);
        assertThat(runs.ran()).isEqualTo(4);
        assertThat(runs.shared.sum()).isEqualTo(6);
        // the next turn starts empty
        runs.add(task(20, 0));
        assertThat(runs.runTurn()).isTrue();
        assertThat(ranHere).endsWith(20);
        assertThat(handedOff).hasSize(6);
    }

    @Test
    void shouldGiveOnlyTheKeptRequestsNotStartedToTheNewReaderWhenOneHoldsTheReaderInASharedTurn() throws Exception {
        runs = new InlineRuns(100, 4, 2, this::run, t -> handedOff.add(t.requestId()), wakes::incrementAndGet, this::takeOver);
        runs.start();
        for (int i : new int[] {0, 1, 2, 3, 4, 5, 6, 7}) { // 8 on 2 cores: 0-3 here (1 holds the reader), 4-7 handed on
            runs.add(task(i, 0));
        }
        AtomicReference<Boolean> stillReader = new AtomicReference<>();
        Thread reader = runTurnUntilTakenOver(stillReader);
        release.countDown();
        reader.join(10_000);

        assertThat(stillReader.get()).isFalse();
        assertThat(ranHere).containsExactly(0, 1);
        // handed on at the turn's start, then the leftovers of the kept share at the takeover: each once
        assertThat(handedOff).containsExactly(4, 5, 6, 7, 2, 3);
    }

    /**
     * A request on the reader that waits to enter the monitor of its POA's pool of request processors (the
     * direct path enters it for a moment per request) is not a blocked servant: no takeover. A request that
     * waits as long for a monitor of its own is: one takeover. A real JacORB POA's pool.
     */
    @Test
    void shouldNotTakeOverAReaderThatWaitsForThePoolMonitorButShouldForAServantsMonitor() throws Exception {
        java.util.Properties props = new java.util.Properties();
        props.setProperty("org.omg.CORBA.ORBClass", "org.jacorb.orb.ORB");
        props.setProperty("org.omg.CORBA.ORBSingletonClass", "org.jacorb.orb.ORBSingleton");
        org.omg.CORBA.ORB orb = org.omg.CORBA.ORB.init(new String[0], props);
        try {
            org.jacorb.poa.POA poa = (org.jacorb.poa.POA) orb.resolve_initial_references("RootPOA");
            poa.the_POAManager().activate();
            org.jacorb.poa.RPPoolManager pool = JacorbPoaInternals.poolOf(poa);
            // the pool starts its processors on first use: that start is not what is measured here
            JacorbPoaInternals.releaseProcessor(pool, JacorbPoaInternals.takeFreeProcessor(pool));
            Object servantsLock = new Object();

            assertThat(takeOversWhileHeld(pool, () -> {
                org.jacorb.poa.RequestProcessor p = JacorbPoaInternals.takeFreeProcessor(pool);
                JacorbPoaInternals.releaseProcessor(pool, p);
            })).as("waiting for the pool's monitor").isZero();
            assertThat(takeOversWhileHeld(servantsLock, () -> {
                synchronized (servantsLock) {
                    ranHere.add(-1);
                }
            })).as("waiting for a servant's monitor").isEqualTo(1);
        } finally {
            orb.shutdown(true);
        }
    }

    /**
     * Runs one request on a reader thread, with the watch, while another thread holds {@code monitor}: until the
     * reader waits for it, then 30 ms more. {@code body} is what the request does. Returns the takeovers.
     */
    private long takeOversWhileHeld(Object monitor, Runnable body) throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        AtomicReference<Thread> reader = new AtomicReference<>();
        Thread holder = new Thread(() -> {
            synchronized (monitor) {
                held.countDown();
                try {
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                    while ((reader.get() == null || reader.get().getState() != Thread.State.BLOCKED)
                            && System.nanoTime() < deadline) {
                        Thread.sleep(1);
                    }
                    Thread.sleep(30);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }, "monitor-holder");
        InlineRuns r = new InlineRuns(100, 0, 2, t -> body.run(), t -> handedOff.add(t.requestId()), () -> { },
                () -> { });
        r.start();
        try {
            holder.start();
            assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
            r.add(task(7, 0));
            Thread t = new Thread(r::runTurn, "reader");
            reader.set(t);
            t.start();
            t.join(20_000);
            holder.join(20_000);
            return r.takeovers();
        } finally {
            r.stop();
        }
    }

    @Test
    void shouldTakeNothingWhenTurnedOff() {
        runs = new InlineRuns(0, 0, 2, this::run, t -> handedOff.add(t.requestId()), wakes::incrementAndGet, this::takeOver);
        assertThat(runs.mayTake(0, false)).isFalse();
    }
}
