package org.irmi.orb.internal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Each connection's fair share of the requests in flight: admitted by the reader (queued for or
 * handed to JacORB) and not finished yet; and their limit, all connections together.
 *
 * <p>Why: JacORB's POA queue is one FIFO for every connection. A client that pipelines requests
 * faster than the servants run them filled it (20,000 requests), after which every other client's
 * requests were refused with {@code TRANSIENT} and lost; before that, they waited behind the
 * flood. Bytes do not catch it: 20,000 small requests are a few MB, far below the inbound budget.
 *
 * <p>How: a connection is read only while it holds (admitted, or read and waiting for a slot) fewer
 * requests than its share, {@code max(MIN_SHARE, limit / connections holding requests)}. A connection at its share is
 * paused (it stops being read, so TCP pushes back on its client alone) and read again when it is
 * below its share: its requests wait in its own socket, not in front of everyone else's. The
 * limit ({@code irmi.transport.max_requests_in_flight}) defaults to the POA's thread pool: the
 * POA's queue then stays near empty, and a request waits behind the others' running requests, not
 * behind a backlog (in the hostile-clients benchmark, the well-behaved client's p99 was 8x its quiet
 * one with this default and 16-26x with four times it). {@link #MIN_SHARE} keeps a client that
 * pipelines a few requests from ever being paused, whatever the number of clients.
 *
 * <p>The requests in flight of all connections together are bounded too, by {@link CoreLimit}
 * (what keeps the cores busy, at most the configured limit): a request read while that many are in
 * flight waits in I-RMI, in the {@link FairScheduler}, and the next one to go is chosen by cost
 * across connections, not in read order. Without this bound every connection's share went to
 * JacORB at once, and a request waited behind all of them, in the POA's one FIFO queue and for a
 * core. The shares are still cut from the configured limit: they bound what each connection holds,
 * not what runs.
 *
 * <p>What ends a request: its reply (or the server interceptor's end of it, or its connection's
 * close) for a request that expects one; for a oneway, its hand-off to JacORB, since nothing is
 * written for it that the transport could see. Oneways queued in the POA are bounded by the
 * inbound byte budget only. Thread-safe.
 */
final class RequestShare {

    /** Requests a connection may always have in flight. */
    static final int MIN_SHARE = 4;

    /** The configured maximum: each connection's share is cut from it. */
    private final int maxLimit;
    /** The requests that may be in flight now, all connections together (at most {@link #maxLimit}). */
    private final CoreLimit limit;
    /** Connections holding at least one admitted request. */
    private final AtomicInteger busyConnections = new AtomicInteger();
    /** Admitted requests, all connections together. */
    private final AtomicInteger admitted = new AtomicInteger();
    /** Requests finished since the start. */
    private final java.util.concurrent.atomic.LongAdder finished = new java.util.concurrent.atomic.LongAdder();

    RequestShare(CoreLimit limit) {
        this.limit = limit;
        this.maxLimit = limit.maxLimit();
    }

    /** The requests that may be in flight now, all connections together. */
    int limit() {
        return limit.limit();
    }

    /** The requests one connection may hold now (admitted or waiting), cut from the configured maximum. */
    int share() {
        return Math.max(MIN_SHARE, maxLimit / Math.max(1, busyConnections.get()));
    }

    /** Whether one more request may be admitted now: fewer than the limit are in flight. */
    boolean mayAdmit() {
        return admitted.get() < limit.limit();
    }

    /** Requests admitted and not finished, all connections together. */
    int admitted() {
        return admitted.get();
    }

    /** A request of {@code c} was admitted. */
    void admit(InboundConnection c) {
        admitted.incrementAndGet();
        if (c.addAdmittedRequests(1) == 1) {
            busyConnections.incrementAndGet();
        }
    }

    /** A request of {@code c} finished. */
    void finished(InboundConnection c) {
        if (c.addAdmittedRequests(-1) == 0) {
            busyConnections.decrementAndGet();
        }
        admitted.decrementAndGet();
        finished.increment();
    }

    /** Requests finished since the start, all connections together. */
    long finishedTotal() {
        return finished.sum();
    }

    /**
     * Whether {@code c}, with {@code waiting} requests read and not yet admitted, holds its share
     * (the caller stops reading it).
     */
    boolean holdsShare(InboundConnection c, int waiting) {
        return c.admittedRequests() + waiting >= share();
    }
}
