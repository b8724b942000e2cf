package org.irmi.adaptation.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.irmi.isolation.Decision;
import org.irmi.isolation.MinorCodes;
import org.irmi.sla.SystemExceptionKind;
import org.irmi.sla.DeferConfig.WhenFull;

/**
 * The bounded queue of the defer module. Pure apart from completing the tickets' futures; time
 * and "is the point still flagging calls" arrive as data.
 *
 * <pre>
 *   offer:  size &lt; capacity -&gt; queue a ticket
 *           full, REJECT        -&gt; refuse (the module rejects with DEFER_QUEUE_FULL)
 *           full, DROP_OLDEST   -&gt; the oldest ticket is rejected with DEFER_QUEUE_FULL, the new one queued
 *           full, SHORT_CIRCUIT -&gt; refuse (the module short-circuits with the default result)
 *   tick (every retryDelay):
 *           the point flagged no call since the last tick -&gt; release every ticket (Proceed)
 *           otherwise every ticket counts a retry; past maxRetries -&gt; reject with DEFER_TIMEOUT
 * </pre>
 *
 * <p>THREAD SAFETY: {@code synchronized}; the sections are short and never block.
 */
public final class DeferQueue {
    /** One parked call. */
    public static final class Ticket {
        final CompletableFuture<Decision> release = new CompletableFuture<>();
        int retries;

        /** @return completes with the decision the parked call must enforce. */
        public CompletableFuture<Decision> release() {
            return release;
        }

        /** @return retries counted so far. */
        public int retries() {
            return retries;
        }
    }

    private final int capacity;
    private final int maxRetries;
    private final WhenFull whenFull;
    private final ArrayDeque<Ticket> queue = new ArrayDeque<>();
    private long released;
    private long rejectedFull;
    private long rejectedRetries;

    public DeferQueue(int capacity, int maxRetries, WhenFull whenFull) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, was " + capacity);
        }
        if (maxRetries < 0) {
            throw new IllegalArgumentException("maxRetries must be >= 0, was " + maxRetries);
        }
        this.capacity = capacity;
        this.maxRetries = maxRetries;
        this.whenFull = whenFull;
    }

    /** @return the queued ticket, or null when the queue is full and the new call is refused. */
    public synchronized Ticket offer() {
        if (queue.size() >= capacity) {
            if (whenFull != WhenFull.DROP_OLDEST) {
                rejectedFull++;
                return null;
            }
            Ticket oldest = queue.pollFirst();
            rejectedFull++;
            oldest.release.complete(Decision.reject(SystemExceptionKind.TRANSIENT,
                    MinorCodes.DEFER_QUEUE_FULL, "deferred call dropped: the defer queue is full"));
        }
        Ticket t = new Ticket();
        queue.addLast(t);
        return t;
    }

    /**
     * @param stillFlagging whether the point flagged calls since the last tick
     * @return the tickets completed by this tick
     */
    public synchronized List<Ticket> onTick(boolean stillFlagging) {
        List<Ticket> done = new ArrayList<>();
        for (Iterator<Ticket> it = queue.iterator(); it.hasNext(); ) {
            Ticket t = it.next();
            if (!stillFlagging) {
                it.remove();
                released++;
                t.release.complete(Decision.proceed());
                done.add(t);
            } else if (++t.retries > maxRetries) {
                it.remove();
                rejectedRetries++;
                t.release.complete(Decision.reject(SystemExceptionKind.TRANSIENT,
                        MinorCodes.DEFER_TIMEOUT, "deferred call still blocked after "
                                + maxRetries + " retries"));
                done.add(t);
            }
        }
        return done;
    }

    /** Removes a ticket whose caller gave up waiting. */
    public synchronized boolean cancel(Ticket t) {
        return queue.remove(t);
    }

    public synchronized int size() { return queue.size(); }
    public synchronized long released() { return released; }
    public synchronized long rejectedFull() { return rejectedFull; }
    public synchronized long rejectedRetries() { return rejectedRetries; }
    public WhenFull whenFull() { return whenFull; }
}
