package org.irmi.orb.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The order in which one connection's JacORB-way requests enter JacORB. The selector thread reads a
 * connection's requests in order, but two dispatch workers that hand two of them to JacORB can do so
 * in either order, and JacORB's POA then queues them in that order. Stock JacORB hands a connection's
 * requests to the POA from one reader thread, in the order they were read; so does I-RMI with
 * {@code dispatch_threads = 0}. This lane does the same with workers: the selector gives each request
 * that goes JacORB's way a ticket as it hands it on ({@link #join}), and the worker that takes it hands
 * it to JacORB only when every earlier ticket of the connection has been handed over or dropped
 * ({@link #awaitTurn}, {@link #leave}).
 *
 * <p>A ticket lock, not a queue: the tickets are handed on in order through the dispatch workers'
 * FIFO, so the request whose turn it is is always already with a worker, and the wait is the few
 * microseconds of an earlier worker's hand-off (longer if that worker is preempted). The wait is
 * bounded by {@link #MAX_WAIT_NANOS}, after which the request goes on out of turn: a hand-off that
 * blocks inside JacORB (a full POA queue with {@code queue_wait} on) delays the connection's later
 * requests by that much at most, and never takes their workers for good.
 *
 * <p>THREADING: {@link #join} and {@link #unjoin} on the selector thread only; {@link #awaitTurn}
 * and {@link #leave} on the dispatch worker that took the ticket, once per ticket.
 */
final class HandOffLane {

    /** How long a worker waits for the connection's earlier hand-offs before it goes on out of turn. */
    static final long MAX_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final int SPINS = 64;
    private static final long PARK_NANOS = 2_000;

    /** The last ticket given out. SELECTOR THREAD ONLY. */
    private long issued;
    private static final VarHandle DONE;

    static {
        try {
            DONE = MethodHandles.lookup().findVarHandle(HandOffLane.class, "done", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Every ticket up to this one has been handed to JacORB or dropped (or gone on out of turn). */
    private volatile long done;

    /** A request that goes JacORB's way is being handed on: its ticket (never 0). SELECTOR THREAD ONLY. */
    long join() {
        return ++issued;
    }

    /** The request given {@code ticket}, the last one given out, was not handed on after all. SELECTOR THREAD ONLY. */
    void unjoin(long ticket) {
        if (ticket != issued) {
            throw new IllegalStateException("ticket " + ticket + " is not the last one given out (" + issued + ")");
        }
        issued--;
    }

    /**
     * Waits until every ticket before {@code ticket} has left the lane, at most {@link #MAX_WAIT_NANOS}.
     *
     * @return true when it is this ticket's turn; false when the wait ran out and it goes on out of turn
     */
    boolean awaitTurn(long ticket) {
        for (int i = 0; i < SPINS; i++) {
            if (done >= ticket - 1) {
                return true;
            }
            Thread.onSpinWait();
        }
        long deadline = System.nanoTime() + MAX_WAIT_NANOS;
        while (done < ticket - 1) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            LockSupport.parkNanos(this, PARK_NANOS);
        }
        return true;
    }

    /** The request given {@code ticket} has been handed to JacORB, or dropped: the next one may go. */
    void leave(long ticket) {
        // never backwards: a ticket that went on out of turn may leave after a later one
        long d = done;
        while (d < ticket && !DONE.weakCompareAndSet(this, d, ticket)) {
            d = done;
        }
    }
}
