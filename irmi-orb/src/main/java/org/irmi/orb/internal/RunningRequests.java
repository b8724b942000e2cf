package org.irmi.orb.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The requests of one connection that were handed to JacORB and have not finished. JacORB may
 * queue a request in the POA and run it later, so its bytes stay counted (in the connection's
 * queued bytes and the inbound budget) until it finishes, and a request that expects a reply keeps
 * its slot in the connection's fair share of requests in flight ({@link RequestShare}) until then.
 * When it finishes, the time it held its slot corrects its connection's cost estimate
 * ({@link FairScheduler.Flow#ended}).
 *
 * <p>It also orders the connection's requests across the two paths. Stock JacORB starts a
 * connection's requests in the order of its POA's queue; the direct path ({@link DirectDispatch})
 * runs a request at once. So while a request of the connection that went JacORB's way has not
 * finished (it waits in the POA's queue, is on its way there, or runs), the connection's later
 * requests go JacORB's way too, behind it ({@link #jacorbWayWaiting}), and enter the POA's queue
 * after it ({@link HandOffLane}). Held until the request ends, not just until its servant starts:
 * between JacORB's {@code receive_request} and the servant's first statement, a later request on the
 * direct path could otherwise run first (docs/orb.md, "Order"; JacORB's {@code SyncScopeTest}).
 *
 * <p>THREADING: any thread (the selector, the dispatch workers, the threads that write replies);
 * lock-free. Each entry is released once: by its end, by the connection's close, or by
 * {@link #forgetStartedBefore}; its "on JacORB's path" mark is set once and cleared once, each by a
 * compare and set, the clearing by its release.
 */
final class RunningRequests {

    /** Entry slot: 1 while the request is on JacORB's path and counted in {@link #jacorbWayWaiting}, else 0. */
    private static final int WAITING = 4;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle JACORB_WAY_WAITING;

    static {
        try {
            JACORB_WAY_WAITING = MethodHandles.lookup().findVarHandle(RunningRequests.class, "jacorbWayWaiting", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final InboundConnection connection;
    /**
     * Requests handed to JacORB and not finished: request id -> {bytes, nanoTime handed, 1 when it
     * counts in the fair share of requests until it ends (a reply is expected), else 0, its estimated
     * cost in nanoseconds of slot time (see {@link FairScheduler}), its {@link #WAITING} mark}.
     */
    private final ConcurrentHashMap<Integer, long[]> running = new ConcurrentHashMap<>(1); // most hold 0 or 1; it grows
    /**
     * Requests of this connection on JacORB's path that have not finished: announced on the selector
     * thread when a request that surely goes JacORB's way is handed on (before the connection's next
     * request is), then owned by its entry's {@link #WAITING} mark.
     */
    @SuppressWarnings("unused") // through JACORB_WAY_WAITING
    private volatile int jacorbWayWaiting;

    RunningRequests(InboundConnection connection) {
        this.connection = connection;
    }

    /**
     * Keeps a request's bytes counted (in its connection's queued bytes and the inbound budget)
     * after it was handed to JacORB, which may queue it in the POA and run it later, until
     * {@link #requestFinished} (its reply, exception or oneway end, from the server interceptor)
     * or the connection closes. Without this, requests waiting in the POA's queue were counted by
     * nobody, and their replies arrived in a burst the budget had not seen coming. Any thread.
     *
     * @param costNanos the request's estimated cost, corrected by what it took when it ends ({@link FairScheduler.Flow#ended})
     * @param announced whether {@link #announceJacorbWay} was called for it: its entry then owns that count
     * @return true when the bytes are now held here (false: the caller releases them, and withdraws
     *         an announcement with {@link #withdrawJacorbWay})
     */
    boolean holdUntilFinished(int requestId, int bytes, long nowNanos, boolean replyExpected, long costNanos,
                              boolean announced) {
        if (connection.isClosed()) {
            return false;
        }
        long[] prev = running.put(requestId, new long[] {bytes, nowNanos, replyExpected ? 1 : 0, costNanos, announced ? 1 : 0});
        if (prev != null) {
            release(prev); // a client that reuses a request id: the older entry is gone
        }
        if (connection.isClosed()) {
            releaseAll(); // closed meanwhile: close() may have missed this entry
        }
        return true;
    }

    /**
     * A request that surely goes JacORB's way (a oneway, one of CORBA::Object's operations) is being
     * handed on: the connection's requests handed on after it follow it until it ends. SELECTOR
     * THREAD, before the next request of the connection is handed on.
     */
    void announceJacorbWay() {
        JACORB_WAY_WAITING.getAndAdd(this, 1);
    }

    /** An announced request was not held after all (cancelled, connection closed, no request id). Any thread, once. */
    void withdrawJacorbWay() {
        JACORB_WAY_WAITING.getAndAdd(this, -1);
    }

    /** True while a request of this connection that went JacORB's way has not finished. Any thread. */
    boolean jacorbWayWaiting() {
        return jacorbWayWaiting > 0;
    }

    /**
     * The held request {@code requestId} goes JacORB's way after all (the direct path did not take
     * it): the connection's later requests follow it until it ends. Any thread. The count is raised
     * before the mark is set, and lowered again if another thread set it first (a client that reuses
     * a request id), so each mark is counted once and the count never goes below the marks.
     */
    void goesJacorbWay(int requestId) {
        long[] held = running.get(requestId);
        if (held == null) {
            return;
        }
        JACORB_WAY_WAITING.getAndAdd(this, 1);
        if (!SLOT.compareAndSet(held, WAITING, 0L, 1L)) {
            JACORB_WAY_WAITING.getAndAdd(this, -1); // marked already
        } else if (running.get(requestId) != held) {
            clearWaiting(held); // released meanwhile: its release may have missed the mark
        }
    }

    private void clearWaiting(long[] entry) {
        if (SLOT.compareAndSet(entry, WAITING, 1L, 0L)) {
            JACORB_WAY_WAITING.getAndAdd(this, -1);
        }
    }

    /**
     * The request {@code requestId} has finished (its reply is being written, or the server
     * interceptor saw its end): its bytes leave the budget, and it leaves the fair share. Any thread;
     * a second report of the same end does nothing.
     */
    void requestFinished(int requestId) {
        long[] held = running.remove(requestId);
        if (held != null) {
            // what it cost: the time it held its slot, from its hand-off to JacORB to its end
            connection.flow.ended(held[3], connection.loop().nanoTime() - held[1]);
            release(held);
        }
    }

    /**
     * Stops counting requests handed to JacORB before {@code nanos} that never reported an end (a
     * path without interceptors): accounting only, so a leak cannot pause a connection for good.
     */
    void forgetStartedBefore(long nanos) {
        if (running.isEmpty()) {
            return;
        }
        for (Map.Entry<Integer, long[]> e : running.entrySet()) {
            if (e.getValue()[1] - nanos < 0 && running.remove(e.getKey(), e.getValue())) {
                release(e.getValue());
            }
        }
    }

    /** Releases every request still held (the connection closed). */
    void releaseAll() {
        for (Integer id : running.keySet()) {
            requestFinished(id);
        }
    }

    private void release(long[] entry) {
        clearWaiting(entry);
        connection.addQueuedBytes(-entry[0]);
        SelectorLoop loop = connection.loop();
        loop.budget.addQueued(-entry[0]);
        if (entry[2] != 0) {
            loop.admission.requestEnded(connection);
        }
    }
}
