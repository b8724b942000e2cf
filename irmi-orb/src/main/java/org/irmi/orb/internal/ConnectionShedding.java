package org.irmi.orb.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;

/**
 * Which open connections to close when a connection limit is reached, so that the newcomer is
 * served and the connections that cost others go. The limits: {@code max_server_connections}
 * ({@code server.max_receptor_threads} where set), and an accept that fails (out of file
 * descriptors, usually).
 *
 * <p><b>Who may be shed</b> ({@link Reason}, in the order they go):
 * <ol>
 *   <li>{@code NEVER_COMPLETED}: the connection has not completed one message in the
 *       {@link #FIRST_MESSAGE_GRACE_NANOS} or more since it was accepted (a client that connected and sent
 *       a few bytes, or nothing, and stalled); a newcomer has that long to send its first message;</li>
 *   <li>{@code STALLED}: it is in the middle of a message and has read nothing for {@link #STALLED_AFTER_NANOS};</li>
 *   <li>{@code IDLE}: nothing partly read, in flight or waiting to be written, and nothing read for
 *       {@code irmi.transport.shed_idle_after_ms}.</li>
 * </ol>
 * A connection with a request in flight, a reply or JacORB message not yet written, or a message
 * that is arriving, is never shed; nor is a connection served within {@code shed_idle_after_ms}, nor
 * one accepted within the grace that has not completed a message yet.
 * Within a reason, the peer host holding the most open connections goes first, and within a host the
 * connection that has read nothing the longest (a newcomer is the youngest of its host).
 *
 * <p><b>How many:</b> one scan finds up to {@link #BATCH} victims among the {@code NEVER_COMPLETED} and
 * {@code STALLED}, so a scan of every open connection is paid once per {@code BATCH} newcomers under a
 * flood; an idle connection costs no one else, so only one goes per newcomer (with a CloseConnection,
 * after which its client reconnects when it next calls). None: the newcomer is refused, as before.
 *
 * <p>SELECTOR THREAD ONLY. {@link #pick} and {@link #reasonOf} are pure.
 */
final class ConnectionShedding {

    /** Why a connection may be shed, in the order the reasons are taken. */
    enum Reason { NEVER_COMPLETED, STALLED, IDLE }

    /** How long a newcomer has to complete its first message before it may be shed as {@code NEVER_COMPLETED}. */
    static final long FIRST_MESSAGE_GRACE_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** A message partly read and nothing read for this long is stalled, for shedding (it is closed at {@code stall_timeout_ms}). */
    static final long STALLED_AFTER_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Victims one scan may find among the connections that never completed a message or stalled. */
    static final int BATCH = 32;
    /**
     * After a scan that found none to shed, how long newcomers are refused without another scan: a flood
     * of connects at a limit held by busy connections then costs one scan per interval, not one each.
     */
    static final long RESCAN_AFTER_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** A connection as the ranking sees it. */
    record Candidate<T>(T connection, Reason reason, int hostConnections, long quietNanos) {
    }

    /** Shedding order: by reason; then the host with the most connections; then the one quiet longest. */
    static final Comparator<Candidate<?>> ORDER = Comparator.<Candidate<?>, Reason>comparing(Candidate::reason)
            .thenComparing(Comparator.<Candidate<?>>comparingInt(Candidate::hostConnections).reversed())
            .thenComparing(Comparator.<Candidate<?>>comparingLong(Candidate::quietNanos).reversed());

    private final SelectorLoop loop;
    private final OpenConnections connections;
    private final long idleAfterNanos;
    /** True while scans are skipped after one found none to shed, until {@link #rescanAtNanos}. */
    private boolean holdingOff;
    private long rescanAtNanos;

    ConnectionShedding(SelectorLoop loop, OpenConnections connections, long idleAfterMillis) {
        this.loop = loop;
        this.connections = connections;
        this.idleAfterNanos = TimeUnit.MILLISECONDS.toNanos(idleAfterMillis);
        // Shedding runs when file descriptors may be gone, and then no class file can be opened from a
        // directory on the class path: every class it needs is loaded now.
        pick(List.of(new Candidate<>(this, Reason.NEVER_COMPLETED, 1, 0), new Candidate<>(this, Reason.IDLE, 1, 0)), 1);
        new HashMap<String, Integer>().merge("", 1, Integer::sum);
        count(Reason.STALLED, 0);
    }

    private void count(Reason r, int n) {
        if (r == Reason.NEVER_COMPLETED) {
            loop.counters.shedNeverCompleted.add(n);
        } else if (r == Reason.STALLED) {
            loop.counters.shedStalled.add(n);
        } else {
            loop.counters.shedIdle.add(n);
        }
    }

    /**
     * Why a connection may be shed, or null when it may not.
     *
     * @param completedMessage true once it completed a message
     * @param ageNanos         how long ago it was accepted
     * @param busy             a request in flight, or something not yet written (ignored before its first message)
     * @param partial          a message (or a fragmented one) is partly read
     * @param quietNanos       how long it has read nothing
     */
    static Reason reasonOf(boolean completedMessage, long ageNanos, boolean busy, boolean partial, long quietNanos,
                           long idleAfterNanos) {
        if (!completedMessage) {
            // nothing of it can be in flight; what it has not written is a handshake's, or an error's
            return ageNanos >= FIRST_MESSAGE_GRACE_NANOS ? Reason.NEVER_COMPLETED : null;
        }
        if (busy) {
            return null;
        }
        if (partial) {
            return quietNanos >= STALLED_AFTER_NANOS ? Reason.STALLED : null;
        }
        return quietNanos >= idleAfterNanos ? Reason.IDLE : null;
    }

    /**
     * The victims, first to go first: up to {@code batch} of the best candidates that never
     * completed a message or stalled; when there are none of those, the one idle connection to go first.
     */
    static <T> List<Candidate<T>> pick(Iterable<Candidate<T>> candidates, int batch) {
        PriorityQueue<Candidate<T>> best = new PriorityQueue<>(batch + 1, ORDER.reversed()); // head: the worst kept
        for (Candidate<T> c : candidates) {
            if (best.size() < batch) {
                best.add(c);
            } else if (ORDER.compare(c, best.peek()) < 0) {
                best.poll();
                best.add(c);
            }
        }
        List<Candidate<T>> sorted = new ArrayList<>(best);
        sorted.sort(ORDER);
        if (!sorted.isEmpty() && sorted.get(0).reason() == Reason.IDLE) {
            return sorted.subList(0, 1);
        }
        sorted.removeIf(c -> c.reason() == Reason.IDLE);
        return sorted;
    }

    /**
     * A connection limit is reached: closes the connections to shed (see the class comment) and
     * counts them by reason.
     *
     * @return how many were closed (0: none may be shed, the newcomer is to be refused)
     */
    int shed(long nowNanos) {
        if (holdingOff && nowNanos - rescanAtNanos < 0) {
            return 0;
        }
        holdingOff = false;
        Map<String, Integer> perHost = new HashMap<>();
        for (InboundConnection c : connections.all()) {
            perHost.merge(c.peerHost, 1, Integer::sum);
        }
        List<Candidate<InboundConnection>> candidates = new ArrayList<>();
        for (InboundConnection c : connections.all()) {
            if (c.isClosed()) {
                continue;
            }
            boolean busy = c.inFlight() > 0 || c.pendingOutboundBytes() > 0
                    || (c.giop != null && c.giop.hasPendingMessages());
            Reason r = reasonOf(c.completedMessage, nowNanos - c.acceptedNanos, busy, c.assembling(), nowNanos - c.lastActivityNanos, idleAfterNanos);
            if (r != null) {
                candidates.add(new Candidate<>(c, r, perHost.getOrDefault(c.peerHost, 1), nowNanos - c.lastActivityNanos));
            }
        }
        List<Candidate<InboundConnection>> victims = pick(candidates, BATCH);
        if (victims.isEmpty()) {
            holdingOff = true;
            rescanAtNanos = nowNanos + RESCAN_AFTER_NANOS;
        }
        for (Candidate<InboundConnection> v : victims) {
            count(v.reason(), 1);
            if (v.reason() == Reason.IDLE) {
                v.connection().closeGracefully();
            } else {
                v.connection().close();
            }
        }
        return victims.size();
    }
}
