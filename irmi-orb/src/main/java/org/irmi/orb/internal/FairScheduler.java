package org.irmi.orb.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The order in which requests waiting for a slot are dispatched: start-time fair queueing (Goyal,
 * Vin and Cheng, SIGCOMM 1996) across connections, by cost, instead of one FIFO.
 *
 * <p>Why: with one FIFO a request waits behind every request read before it, so a client with one
 * request in flight waits behind the whole backlog of the clients that pipeline many (the floods
 * and 256 KB echoes of the hostile-clients benchmark). Counting requests is not enough either: a
 * 256 KB echo takes a slot far longer than a small call.
 *
 * <p>How: each connection is a <em>flow</em> with a FIFO of its waiting requests and a finish tag
 * {@code F}, in cost units (nanoseconds of slot time, see {@link SelectorLoop}). When a request
 * becomes the head of its flow it gets the start tag
 * <pre>
 *   S = max(v, F + charges)        charges: corrections reported since (see {@link Flow#charge})
 * </pre>
 * where {@code v}, the virtual time, is the start tag of the request dispatched last. The head with
 * the smallest {@code S} is dispatched next (ties in arrival order), and then
 * <pre>
 *   v = S,   F = S + cost           cost: the estimate given when the request was offered
 * </pre>
 * A connection that pipelines many requests thus moves its own {@code F} ahead by each one's cost,
 * while a connection that was idle starts at {@code v}: its one request goes ahead of every request
 * of a backlogged connection but at most one. It earns no credit while idle ({@code S >= v}), so
 * an intermittent client is not served in a burst. An estimate that was wrong is corrected when
 * the request ends ({@link Flow#charge}): the connection pays what its requests really took, with
 * its next request.
 *
 * <p>Cost: {@link #offer} and {@link #poll} are O(log n), n the connections with requests waiting;
 * {@link #remove} O(n). Pure: no clock, no threads, no I/O.
 *
 * <p>THREADING: SELECTOR THREAD ONLY, except {@link Flow#charge} (any thread).
 *
 * @param <T> what is scheduled (a request on its way to a worker)
 */
final class FairScheduler<T> {

    /**
     * One connection's waiting requests, its tags, and what its requests cost: the estimate for its
     * next request is a moving average of what its requests took,
     * {@code estimate += (cost - estimate) / 8} per ended request.
     */
    static final class Flow<T> {
        private static final VarHandle CHARGES;

        static {
            try {
                CHARGES = MethodHandles.lookup().findVarHandle(Flow.class, "charges", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /**
         * Its waiting requests and tags; made when it first has a request waiting. A connection that
         * never pipelines (most: a closed-loop client's requests never wait for a slot) has none, so
         * an idle connection carries only the estimate and the charges.
         */
        private Queued<T> q;
        /** Corrections to the finish tag reported by any thread, folded in at the next start tag. */
        private volatile long charges;
        /** Written by the threads that end requests; a lost update under a race only delays the average. */
        private volatile long costEstimate;

        /** @param initialCostEstimate the estimate until a request of this flow has ended ({@code >= 0}) */
        Flow(long initialCostEstimate) {
            if (initialCostEstimate < 0) {
                throw new IllegalArgumentException("initialCostEstimate must be >= 0 but is " + initialCostEstimate);
            }
            this.costEstimate = initialCostEstimate;
        }

        /** What this flow's next request is expected to cost. Any thread. */
        long costEstimate() {
            return costEstimate;
        }

        /**
         * A request of this flow, offered at {@code estimatedCost}, ended having cost {@code cost}: the
         * difference is charged ({@link #charge}) and the estimate moves toward {@code cost}. Any thread.
         */
        void ended(long estimatedCost, long cost) {
            long c = Math.max(0, cost);
            charge(c - estimatedCost);
            long e = costEstimate;
            costEstimate = e + (c - e) / 8;
        }

        /**
         * The request that took {@code costDelta} more (or, negative, less) than its estimate: its
         * connection's next start tag moves by that much. Any thread.
         */
        void charge(long costDelta) {
            if (costDelta != 0) {
                CHARGES.getAndAdd(this, costDelta);
            }
        }

        /** Requests of this flow waiting to be dispatched. SELECTOR THREAD ONLY. */
        int waiting() {
            return q == null ? 0 : q.waiting.size();
        }

        /** The finish tag, with the corrections not yet folded in (for tests and diagnostics). */
        long finishTag() {
            return (q == null ? 0 : q.finish) + charges;
        }
    }

    /** A flow's waiting requests and its tags. SELECTOR THREAD ONLY. */
    private static final class Queued<T> {
        final ArrayDeque<Entry<T>> waiting = new ArrayDeque<>(4);
        long finish;
        long headStart;
        long headSeq;
        boolean listed;
    }

    private record Entry<T>(T item, long cost, long seq) {
    }

    private final PriorityQueue<Flow<T>> order = new PriorityQueue<>((a, b) -> a.q.headStart != b.q.headStart
            ? Long.compare(a.q.headStart, b.q.headStart) : Long.compare(a.q.headSeq, b.q.headSeq));
    private long virtualTime;
    private long seq;
    private int size;

    /** Queues {@code item} at the end of {@code flow}'s requests; {@code cost} is its estimated cost ({@code >= 0}). */
    void offer(Flow<T> flow, T item, long cost) {
        if (cost < 0) {
            throw new IllegalArgumentException("cost must be >= 0 but is " + cost);
        }
        if (flow.q == null) {
            flow.q = new Queued<>();
        }
        flow.q.waiting.add(new Entry<>(item, cost, seq++));
        size++;
        if (!flow.q.listed) {
            list(flow);
        }
    }

    /** The next request to dispatch, or null when none waits. */
    T poll() {
        Flow<T> flow = order.poll();
        if (flow == null) {
            return null;
        }
        flow.q.listed = false;
        Entry<T> e = flow.q.waiting.poll();
        size--;
        virtualTime = flow.q.headStart;
        flow.q.finish = flow.q.headStart + e.cost();
        if (!flow.q.waiting.isEmpty()) {
            list(flow);
        }
        return e.item();
    }

    /** Takes {@code flow} out (its connection closed) and returns its waiting requests, in order. */
    List<T> remove(Flow<T> flow) {
        if (flow.q == null) {
            return List.of();
        }
        if (flow.q.listed) {
            order.remove(flow);
            flow.q.listed = false;
        }
        List<T> out = new ArrayList<>(flow.q.waiting.size());
        for (Entry<T> e : flow.q.waiting) {
            out.add(e.item());
        }
        size -= flow.q.waiting.size();
        flow.q.waiting.clear();
        return out;
    }

    /**
     * Takes out every waiting request that {@code expired} accepts, in any flow, and returns them. A
     * flow whose head goes gets its next request as head, tagged as when a head is dispatched (its
     * finish tag unchanged: it is not charged for what never ran). O(n) in the requests waiting.
     */
    List<T> removeIf(java.util.function.Predicate<? super T> expired) {
        List<T> out = new ArrayList<>();
        for (Flow<T> flow : new ArrayList<>(order)) {
            Entry<T> head = flow.q.waiting.peek();
            java.util.Iterator<Entry<T>> it = flow.q.waiting.iterator();
            while (it.hasNext()) {
                Entry<T> e = it.next();
                if (expired.test(e.item())) {
                    it.remove();
                    out.add(e.item());
                    size--;
                }
            }
            if (flow.q.waiting.peek() != head) {
                order.remove(flow);
                flow.q.listed = false;
                if (!flow.q.waiting.isEmpty()) {
                    list(flow);
                }
            }
        }
        return out;
    }

    /** Requests waiting, all flows together. */
    int size() {
        return size;
    }

    /** The start tag of the request dispatched last. */
    long virtualTime() {
        return virtualTime;
    }

    private void list(Flow<T> flow) {
        flow.q.finish += (long) Flow.CHARGES.getAndSet(flow, 0L);
        flow.q.headStart = Math.max(virtualTime, flow.q.finish);
        flow.q.headSeq = flow.q.waiting.peek().seq();
        flow.q.listed = true;
        order.add(flow);
    }
}
