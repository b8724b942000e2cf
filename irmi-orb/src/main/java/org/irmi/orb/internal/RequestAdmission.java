package org.irmi.orb.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.irmi.isolation.MinorCodes;
import org.irmi.orb.Rejection;

/**
 * Request admission: which requests the selector has read go to JacORB now, which wait for a
 * slot, and which connections are read at all. A complete message enters at {@link #onRequest}:
 * its header is checked, the server request hook may answer it ({@link EarlyReplies}), and it is
 * handed on ({@link RequestDispatch}) or waits. A request takes one of the slots of the requests
 * in flight ({@link CoreLimit}: what keeps the cores busy); a connection holding its fair share of
 * them ({@link RequestShare}) is no longer read, and its requests read meanwhile wait in the
 * {@link FairScheduler}, which hands free slots out by cost. The inbound memory budget
 * ({@link InboundBudget}) pauses the connections holding a share of it above its high-water mark
 * and closes the largest holders above its limit.
 *
 * <p>The requests waiting here are the ones waiting for a servant thread (with the in-flight limit at
 * its default, the POA's thread pool), so JacORB's POA queue settings apply to them as the POA
 * applies them to its own queue: with {@code jacorb.poa.queue_wait} off, a request that finds
 * {@code jacorb.poa.queue_max} requests waiting is answered {@code TRANSIENT} if its connection
 * holds its fair share (the connections below theirs still wait: they are not the ones filling the
 * queue); a request that has waited {@code jacorb.poa.threadtimeout} is answered {@code TIMEOUT}.
 *
 * <p>THREADING: SELECTOR THREAD ONLY, except {@link #requestEnded} and {@link #waitingRequests}
 * (any thread), and {@link #coreSamples} (recorded by servant threads).
 */
final class RequestAdmission {

    /** A message on its way to a worker. */
    static final class Task {
        private final InboundConnection connection;
        private final byte[] message;
        private final int type;
        private final int requestId;
        private final boolean replyExpected;
        private final String operation;
        /**
         * True when it takes a slot of the requests in flight ({@link RequestShare}) and waits for one
         * in the {@link FairScheduler}; false for replies to this server's callbacks, which end work
         * instead of starting it: a servant holding a slot may be waiting for one, so a reply never
         * waits for a slot.
         */
        private final boolean counted;
        /** Its estimated cost when it was read (its connection's {@link FairScheduler.Flow#costEstimate}). */
        private final long costNanos;
        /** When it was read, on the loop's clock. */
        private final long readNanos;
        /**
         * True for the request of a connection with nothing else in flight, read while other
         * connections' requests wait for a slot: it goes to a worker ahead of theirs
         * ({@link DispatchQueue#offerFirst}). Set by the selector thread before the hand-off.
         */
        boolean ahead;
        /**
         * Its place in its connection's {@link HandOffLane}, 0 for none: set by the selector thread
         * before it hands the task on (the hand-off queue publishes it), read by the worker.
         */
        long laneTicket;

        Task(InboundConnection connection, byte[] message, int type, int requestId, boolean replyExpected,
             String operation, boolean counted, long costNanos, long readNanos) {
            this.connection = connection;
            this.message = message;
            this.type = type;
            this.requestId = requestId;
            this.replyExpected = replyExpected;
            this.operation = operation;
            this.counted = counted;
            this.costNanos = costNanos;
            this.readNanos = readNanos;
        }

        InboundConnection connection() {
            return connection;
        }

        byte[] message() {
            return message;
        }

        int type() {
            return type;
        }

        int requestId() {
            return requestId;
        }

        boolean replyExpected() {
            return replyExpected;
        }

        String operation() {
            return operation;
        }

        boolean counted() {
            return counted;
        }

        long costNanos() {
            return costNanos;
        }

        long readNanos() {
            return readNanos;
        }
    }

    private final SelectorLoop loop;
    /** The loop's open connections (a live view). */
    private final Collection<InboundConnection> connections;
    /** Each connection's fair share of the requests in flight. */
    final RequestShare requests;
    /** How many requests may be in flight: what keeps the cores busy, at most the configured maximum. */
    private final CoreLimit coreLimit;
    /** Servant threads' samples for {@link #coreLimit}. */
    final CoreSamples coreSamples = new CoreSamples();
    /** {@code requests.finishedTotal()} at the last sweep. SELECTOR THREAD ONLY. */
    private long finishedAtLastSweep;
    /** Counted requests read since the last sweep from connections with nothing in flight (see {@link CoreLimit#onLightRequests}). SELECTOR THREAD ONLY. */
    private long lightRequests;
    /**
     * Of {@link #lightRequests}, those from connections that never had two requests in flight, read while
     * other connections' requests waited for a slot (see {@link CoreLimit#onLightRequests}). SELECTOR THREAD ONLY.
     */
    private long closedLoopBesideWaiting;
    /**
     * The connection whose counted requests this window has seen, while it is the only one; null before
     * the first. SELECTOR THREAD ONLY.
     */
    private InboundConnection windowCaller;
    /** Another connection than {@link #windowCaller} sent a counted request this window. SELECTOR THREAD ONLY. */
    private boolean windowSeveralCallers;
    /** The connection the limit is lifted for ({@link CoreLimit#onAlone}), or null. SELECTOR THREAD ONLY. */
    private InboundConnection aloneCaller;
    /** Requests read and waiting for a slot, in the order they will get one. SELECTOR THREAD ONLY. */
    private final FairScheduler<Task> waiting = new FairScheduler<>();
    /** {@code waiting.size()}, for other threads (written by the selector thread only). */
    private volatile int waitingRequests;
    /** A {@link #releaseWaiting} is posted to the selector and has not run yet. */
    private final AtomicBoolean releasePosted = new AtomicBoolean();
    /** The POA's queue limits, applied to {@link #waiting}. */
    private final TransportConfig.PoaQueue poaQueue;
    /** Connections not read because the budget is short. SELECTOR THREAD ONLY. */
    private final List<InboundConnection> budgetPaused = new ArrayList<>();

    RequestAdmission(SelectorLoop loop, Collection<InboundConnection> connections) {
        this.loop = loop;
        this.poaQueue = loop.config.poaQueue();
        this.connections = connections;
        this.coreLimit = new CoreLimit(Runtime.getRuntime().availableProcessors(), loop.config.maxRequestsInFlight(),
                loop.config.lightReserveCores());
        this.requests = new RequestShare(coreLimit);
    }

    /** Requests read and waiting for a slot. Any thread. */
    int waitingRequests() {
        return waitingRequests;
    }

    /** How many requests may be in flight now. Any thread. */
    int limit() {
        return coreLimit.limit();
    }

    /** The reader's periodic sweep: paused connections, the limit, requests waited too long. SELECTOR THREAD ONLY. */
    void sweep() {
        resumePaused();
        adaptLimit();
        expireWaiting();
    }

    /**
     * The sweep's adaptation of the limit, when {@code adapt_requests_in_flight} is on: requests
     * that wait while none ended mean those in flight are blocked; else the servant threads'
     * samples move the limit. SELECTOR THREAD ONLY.
     */
    private void adaptLimit() {
        if (loop.config.adaptRequestsInFlight()) {
            long finished = requests.finishedTotal();
            if (waitingRequests > 0 && finished == finishedAtLastSweep) {
                coreLimit.onStalled(); // requests wait and none ended: those in flight are blocked
            } else {
                coreSamples.drainInto(coreLimit);
            }
            finishedAtLastSweep = finished;
            boolean first = loop.config.lightRequestsFirst();
            coreLimit.onLightRequests(first ? lightRequests : 0, first ? closedLoopBesideWaiting : 0);
            lightRequests = 0;
            closedLoopBesideWaiting = 0;
            // (requests of others still in flight sent nothing new for a window: they compete for no one's
            // latency, and their next request ends this at once; the admitted counts are not compared, as
            // workers change them while the sweep reads)
            boolean alone = windowCaller != null && !windowSeveralCallers && !windowCaller.isClosed()
                    && waiting.size() == windowCaller.flow.waiting();
            aloneCaller = alone ? windowCaller : null;
            coreLimit.onAlone(alone);
            windowCaller = null;
            windowSeveralCallers = false;
            releaseWaiting(); // the limit may have grown
        }
    }

    /**
     * Holds the inbound budget after {@code c} was read: over the limit, the connections holding
     * the most are closed; over the high-water mark, {@code c} stops being read if it holds a share.
     * SELECTOR THREAD ONLY.
     */
    void afterRead(InboundConnection c) {
        while (loop.budget.overLimit()) {
            InboundConnection largest = null;
            for (InboundConnection o : connections) {
                if (!o.isClosed() && (largest == null || o.inboundHeldBytes() > largest.inboundHeldBytes())) {
                    largest = o;
                }
            }
            if (largest == null || largest.inboundHeldBytes() < loop.budget.shareBytes()) {
                // what is left over belongs to closed connections' queued requests (it drains by
                // itself) or to small holders: the small requests of other clients are never closed
                break;
            }
            loop.counters.budgetCloses.add(1);
            loop.badInput.note("inbound budget of {} bytes exceeded: closed connection {} from {} holding {} bytes",
                    loop.budget.limitBytes(), largest.id, largest.peerAddress, largest.inboundHeldBytes());
            largest.close();
        }
        pauseIfOverBudget(c);
    }

    /**
     * Stops reading {@code c} when the budget is above its high-water mark and {@code c} holds a
     * share of it. Called after each read of {@code c}, and when replies that {@code c}'s client
     * does not read push the budget up between reads (see {@link InboundConnection#onRepliesQueued}): the
     * replies of requests that were already queued land in bursts, and without this check the
     * budget could pass its limit before {@code c} is read again, and {@code c} be closed where a
     * pause was enough. SELECTOR THREAD ONLY.
     */
    void pauseIfOverBudget(InboundConnection c) {
        if (c.isClosed() || c.budgetPaused || !loop.budget.shouldPause(c.inboundHeldBytes())) {
            return;
        }
        if (ReadInterest.stop(c)) {
            c.budgetPaused = true;
            budgetPaused.add(c);
            loop.counters.budgetPauses.add(1);
        }
    }

    /** Reads paused connections again, those needing the least first, while what they need fits. SELECTOR THREAD ONLY. */
    private void resumePaused() {
        if (budgetPaused.isEmpty()) {
            return;
        }
        budgetPaused.removeIf(InboundConnection::isClosed);
        budgetPaused.sort(java.util.Comparator.comparingLong(InboundConnection::inboundNeededBytes));
        java.util.Iterator<InboundConnection> it = budgetPaused.iterator();
        while (it.hasNext()) {
            InboundConnection c = it.next();
            if (!loop.budget.mayResume(c.inboundNeededBytes())) {
                return;
            }
            it.remove();
            c.budgetPaused = false;
            ReadInterest.resume(c);
        }
    }

    /**
     * Stops reading {@code c}, which holds its share of the requests in flight: its further requests
     * wait in its own socket. SELECTOR THREAD ONLY.
     */
    private void pauseForShare(InboundConnection c) {
        if (c.isClosed() || c.sharePaused) {
            return;
        }
        if (ReadInterest.stop(c)) {
            c.sharePaused = true;
            loop.counters.sharePauses.add(1);
        }
    }

    /**
     * Reads {@code c} again once it holds less than its share (admitted and waiting requests
     * together). Its waiting requests get their slots from {@link #releaseWaiting}. SELECTOR THREAD ONLY.
     */
    void resumeShare(InboundConnection c) {
        if (!c.sharePaused || c.isClosed() || requests.holdsShare(c, c.flow.waiting())) {
            return;
        }
        c.sharePaused = false;
        ReadInterest.resume(c);
    }

    /**
     * Gives free slots to waiting requests, in the {@link FairScheduler}'s order. Runs while
     * quiescing too: requests already read are answered. SELECTOR THREAD ONLY.
     */
    void releaseWaiting() {
        while (waiting.size() > 0 && requests.mayAdmit()) {
            Task t = waiting.poll();
            waitingRequests = waiting.size();
            handOn(t);
        }
    }

    /**
     * Answers {@code TIMEOUT} to the requests that have waited {@code jacorb.poa.threadtimeout} for a
     * slot, as JacORB's POA answers a request for which no thread of its pool freed in that time.
     * Called by the sweep, so a request waits up to one sweep interval more. SELECTOR THREAD ONLY.
     */
    private void expireWaiting() {
        long timeoutNanos = poaQueue.threadTimeoutMillis() * 1_000_000L;
        if (timeoutNanos == 0 || waiting.size() == 0) {
            return;
        }
        long now = loop.nanoTime();
        List<Task> expired = waiting.removeIf(t -> t.type() == Giop.REQUEST && now - t.readNanos() >= timeoutNanos);
        if (expired.isEmpty()) {
            return;
        }
        waitingRequests = waiting.size();
        Rejection timeout = new Rejection("TIMEOUT", MinorCodes.POA_THREAD_TIMEOUT, Rejection.Completion.NO,
                "no servant thread free within jacorb.poa.threadtimeout (" + poaQueue.threadTimeoutMillis() + " ms)");
        for (Task t : expired) {
            refuseWaiting(t, loop.counters.poaThreadTimeouts, timeout);
            resumeShare(t.connection());
        }
    }

    /** {@code t}, read and not admitted, is answered {@code r} (a oneway is dropped) instead of running. SELECTOR THREAD ONLY. */
    private void refuseWaiting(Task t, java.util.concurrent.atomic.LongAdder counter, Rejection r) {
        InboundConnection c = t.connection();
        c.addInFlight(-1);
        c.addQueuedBytes(-t.message().length);
        loop.budget.addQueued(-t.message().length);
        counter.add(1);
        if (t.replyExpected() && !c.isClosed()) {
            loop.earlyReplies.refuse(t, r);
        }
    }

    /** Takes {@code c}'s waiting requests out of the scheduler (it closed) and returns them. SELECTOR THREAD ONLY. */
    List<Task> dropWaiting(InboundConnection c) {
        List<Task> dropped = waiting.remove(c.flow);
        waitingRequests = waiting.size();
        return dropped;
    }

    /** A request of {@code c} that counted in its share has ended: its slot goes to a waiting request. Any thread. */
    void requestEnded(InboundConnection c) {
        requests.finished(c);
        if (waitingRequests > 0 && releasePosted.compareAndSet(false, true)) {
            loop.post(() -> {
                releasePosted.set(false);
                releaseWaiting();
            });
        }
        if (c.sharePaused && c.claimShareCheck()) {
            loop.post(() -> {
                c.shareCheckRan();
                resumeShare(c);
            });
        }
    }

    /**
     * A complete Request or LocateRequest arrived, or a Reply or LocateReply to a request this server
     * sent over the client's connection (bi-directional GIOP). SELECTOR THREAD ONLY.
     */
    void onRequest(InboundConnection c, byte[] m) {
        int type = Giop.type(m);
        int minor = Giop.minor(m);
        if (type == Giop.REPLY || type == Giop.LOCATE_REPLY) {
            // to a worker like a request (bounded by the hand-off queue and the connection's share):
            // JacORB's reply handling parses the reply and wakes the waiting thread
            enqueue(c, m, type, -1, false, "");
            return;
        }
        if (type == Giop.LOCATE_REQUEST) {
            int id = minor == 2 ? safeLeadingId(m) : -1;
            enqueue(c, m, type, id, true, "");
            return;
        }
        RequestParser.Parsed p;
        try {
            // every request header is checked here, before JacORB reads it: a length or count that
            // exceeds the message gets MessageError, not an exception in a worker and silence
            p = RequestParser.parse(m);
        } catch (RequestParser.Malformed e) {
            loop.badInput.note("malformed request header on connection {} from {}: {}", c.id, c.peerAddress,
                    e.getMessage());
            c.messageErrorAndClose(minor);
            return;
        }
        if (loop.earlyReplies.answeredByHook(c, m, p, minor)) {
            return;
        }
        enqueue(c, m, type, p.requestId(), p.responseExpected(), p.operation());
    }

    private static int safeLeadingId(byte[] m) {
        try {
            return RequestParser.leadingRequestId(m);
        } catch (RequestParser.Malformed e) {
            return -1;
        }
    }

    private void enqueue(InboundConnection c, byte[] m, int type, int requestId, boolean response, String op) {
        c.addInFlight(1);
        c.addQueuedBytes(m.length);
        loop.budget.addQueued(m.length);
        boolean counted = type != Giop.REPLY && type != Giop.LOCATE_REPLY;
        Task t = new Task(c, m, type, requestId, type == Giop.REQUEST && response && requestId != -1, op, counted,
                c.flow.costEstimate(), loop.nanoTime());
        if (counted) {
            noteCaller(c);
        }
        boolean light = c.admittedRequests() == 0 && c.flow.waiting() == 0;
        if (counted && light) {
            lightRequests++;
            // the slots are taken by connections that pipeline, and their requests wait: this one
            // goes to a worker before theirs, and does not wait for one of them to finish
            t.ahead = waiting.size() > 0;
            if (t.ahead && !c.pipelines) {
                closedLoopBesideWaiting++;
            }
        } else if (counted) {
            c.pipelines = true; // a second request in flight: never again counted as closed-loop
        }
        if (!counted || light) {
            // A connection with nothing in flight never waits for a slot: it cannot be the one
            // crowding out the others (fair queueing would serve it next anyway), and closed-loop
            // clients, the common case, stay off the scheduler and its extra wake-ups. The requests
            // in flight may so exceed the limit by one per such connection.
            handOn(t);
            return;
        }
        if (type == Giop.REQUEST && poaQueue.refuses(waiting.size()) && requests.holdsShare(c, c.flow.waiting())) {
            // The POA's queue_max with queue_wait off: this queue is where requests wait for a servant
            // thread, so the POA's limit applies here, answered as the POA answers its full queue. Only
            // a connection holding its fair share is refused: the others' requests still wait their turn.
            refuseWaiting(t, loop.counters.poaQueueRefusals, new Rejection("TRANSIENT", MinorCodes.POA_QUEUE_FULL,
                    Rejection.Completion.NO, "resource limit reached: jacorb.poa.queue_max (" + poaQueue.max()
                    + ") requests wait for a servant thread"));
            return;
        }
        if (aloneCaller == c && waiting.size() == 0 && requests.mayAdmit()) {
            // One connection alone calls and a slot is free: fair order among connections means nothing
            // here, so the request goes on now rather than at the end of the turn, and nothing waits
            // (a request ending while one waits wakes the reader, requestEnded).
            handOn(t);
            if (requests.holdsShare(c, 0)) {
                pauseForShare(c);
            }
            return;
        }
        // Waits for a slot with the other connections' requests; handed on by releaseWaiting, at the
        // end of this turn at the latest. At its share, this connection is no longer read.
        waiting.offer(c.flow, t, t.costNanos());
        waitingRequests = waiting.size();
        if (requests.holdsShare(c, c.flow.waiting())) {
            pauseForShare(c);
        }
    }

    /**
     * Notes that {@code c} sent a counted request: a second caller in the window, and any caller but
     * the one the limit was lifted for, ends a lifted limit at once. SELECTOR THREAD ONLY.
     */
    private void noteCaller(InboundConnection c) {
        if (windowCaller == null) {
            windowCaller = c;
        } else if (windowCaller != c) {
            windowSeveralCallers = true;
        }
        if (aloneCaller != null && aloneCaller != c) {
            aloneCaller = null;
            coreLimit.onAlone(false);
        }
    }

    /**
     * Admits {@code t} (when it counts in the requests in flight) and hands it to the dispatch queue
     * (or JacORB). SELECTOR THREAD ONLY.
     */
    private void handOn(Task t) {
        InboundConnection c = t.connection();
        if (t.counted()) {
            requests.admit(c);
        }
        if (!loop.dispatch.offer(t)) {
            refuseHandOff(t);
        }
    }

    /**
     * Gives {@code t}, admitted, to the dispatch workers, never to the reader: a request of a turn
     * whose reader was taken over before it ran ({@link InlineRuns#takeLeftovers}). SELECTOR THREAD ONLY.
     */
    void handToWorkers(Task t) {
        if (!loop.dispatch.offer(t, false)) {
            refuseHandOff(t);
        }
    }

    /** {@code t}, admitted, found the hand-off queue full: answered TRANSIENT (a oneway is dropped). SELECTOR THREAD ONLY. */
    private void refuseHandOff(Task t) {
        InboundConnection c = t.connection();
        byte[] m = t.message();
        c.addInFlight(-1);
        c.addQueuedBytes(-m.length);
        loop.budget.addQueued(-m.length);
        if (t.counted()) {
            requestEnded(c);
        }
        loop.counters.handoffRejections.add(1);
        if (t.replyExpected()) {
            loop.earlyReplies.handoffFull(t);
        }
    }
}
