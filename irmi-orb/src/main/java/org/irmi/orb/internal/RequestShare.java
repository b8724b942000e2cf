package org.irmi.orb.internal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Each connection's fair share of the requests in flight: admitted by the reader (queued for or
 * handed to JacORB) and not finished yet.
 *
 * <p>Why: JacORB's POA queue is one FIFO for every connection. A client that pipelines requests
 * faster than the servants run them filled it (20,000 requests), after which every other client's
 * requests were refused with {@code TRANSIENT} and lost; before that, they waited behind the
 * flood. Bytes do not catch it: 20,000 small requests are a few MB, far below the inbound budget.
 *
 * <p>How: a connection is read only while it holds fewer requests than its share,
 * {@code max(MIN_SHARE, limit / connections holding requests)}. A connection at its share is
 * paused (it stops being read, so TCP pushes back on its client alone) and read again when it is
 * below its share: its requests wait in its own socket, not in front of everyone else's. The
 * limit ({@code irmi.transport.max_requests_in_flight}) defaults to the POA's thread pool: the
 * POA's queue then stays near empty, and a request waits behind the others' running requests, not
 * behind a backlog (in the hostile-clients benchmark, the well-behaved client's p99 was 8x its quiet
 * one with this default and 16-26x with four times it). {@link #MIN_SHARE} keeps a client that
 * pipelines a few requests from ever being paused, whatever the number of clients.
 *
 * <p>What ends a request: its reply (or the server interceptor's end of it, or its connection's
 * close) for a request that expects one; for a oneway, its hand-off to JacORB, since nothing is
 * written for it that the transport could see. Oneways queued in the POA are bounded by the
 * inbound byte budget only. Thread-safe.
 */
final class RequestShare {

    /** Requests a connection may always have in flight. */
    static final int MIN_SHARE = 4;

    private final int limit;
    /** Connections holding at least one admitted request. */
    private final AtomicInteger busyConnections = new AtomicInteger();

    RequestShare(int limit) {
        this.limit = limit;
    }

    int limit() {
        return limit;
    }

    /** The requests one connection may hold now. */
    int share() {
        return Math.max(MIN_SHARE, limit / Math.max(1, busyConnections.get()));
    }

    /** A request of {@code c} was admitted; returns whether {@code c} now holds its share (the caller pauses it). */
    boolean admit(InboundConnection c) {
        if (c.admittedRequests.incrementAndGet() == 1) {
            busyConnections.incrementAndGet();
        }
        return c.admittedRequests.get() >= share();
    }


    /** A request of {@code c} finished; returns whether {@code c} is now below its share. */
    boolean finished(InboundConnection c) {
        int left = c.admittedRequests.decrementAndGet();
        if (left == 0) {
            busyConnections.decrementAndGet();
        }
        return left < share();
    }

    /** Whether {@code c} is below its share. */
    boolean below(InboundConnection c) {
        return c.admittedRequests.get() < share();
    }
}
