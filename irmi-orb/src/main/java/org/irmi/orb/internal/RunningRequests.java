package org.irmi.orb.internal;

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
 * <p>THREADING: any thread (the selector, the dispatch workers, the threads that write replies);
 * lock-free. Each entry is released once: by its end, by the connection's close, or by
 * {@link #forgetStartedBefore}.
 */
final class RunningRequests {

    private final InboundConnection connection;
    private final SelectorLoop loop;
    /**
     * Requests handed to JacORB and not finished: request id -> {bytes, nanoTime handed, 1 when it
     * counts in the fair share of requests until it ends (a reply is expected), else 0, its estimated
     * cost in nanoseconds of slot time (see {@link FairScheduler})}.
     */
    private final ConcurrentHashMap<Integer, long[]> running = new ConcurrentHashMap<>();

    RunningRequests(InboundConnection connection, SelectorLoop loop) {
        this.connection = connection;
        this.loop = loop;
    }

    /**
     * Keeps a request's bytes counted (in its connection's queued bytes and the inbound budget)
     * after it was handed to JacORB, which may queue it in the POA and run it later, until
     * {@link #requestFinished} (its reply, exception or oneway end, from the server interceptor)
     * or the connection closes. Without this, requests waiting in the POA's queue were counted by
     * nobody, and their replies arrived in a burst the budget had not seen coming. Any thread.
     *
     * @param costNanos the request's estimated cost, corrected by what it took when it ends ({@link FairScheduler.Flow#ended})
     * @return true when the bytes are now held here (false: the caller releases them)
     */
    boolean holdUntilFinished(int requestId, int bytes, long nowNanos, boolean replyExpected, long costNanos) {
        if (connection.isClosed()) {
            return false;
        }
        long[] prev = running.put(requestId, new long[] {bytes, nowNanos, replyExpected ? 1 : 0, costNanos});
        if (prev != null) {
            release(prev); // a client that reuses a request id: the older entry is gone
        }
        if (connection.isClosed()) {
            releaseAll(); // closed meanwhile: close() may have missed this entry
        }
        return true;
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
            connection.flow.ended(held[3], loop.nanoTime() - held[1]);
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
        connection.queuedBytes.addAndGet(-entry[0]);
        loop.budget.addQueued(-entry[0]);
        if (entry[2] != 0) {
            loop.admission.requestEnded(connection);
        }
    }
}
