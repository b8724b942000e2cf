package org.irmi.orb.internal;

import java.util.HashMap;
import java.util.Map;

/**
 * One connection's fragmented GIOP messages while their fragments arrive: at most one at a time
 * in GIOP 1.1, and in GIOP 1.2 one per request id, at most {@code max_fragmented_messages} of
 * them. Each message's pieces are held by a {@link Reassembly}; this class matches fragments to
 * their message, bounds the count and the size, and hands each finished message to
 * {@link InboundConnection#complete}. A protocol error (a fragment nobody started, a second start
 * of the same message, a message past the maximum size) answers MessageError and closes.
 *
 * <p>SELECTOR THREAD ONLY.
 */
final class FragmentReassembler {

    private final InboundConnection connection;
    private final TransportConfig config;
    private final Counters counters;
    private Reassembly fragmented11;
    private Map<Integer, Reassembly> fragmented12;

    FragmentReassembler(InboundConnection connection, TransportConfig config, Counters counters) {
        this.connection = connection;
        this.config = config;
        this.counters = counters;
    }

    /** {@code m} is the first part of a fragmented message (its more-fragments flag is set). */
    void start(byte[] m, int minor, long nowNanos, long firstByteNanos) {
        if (minor == 1) {
            if (fragmented11 != null) {
                connection.messageErrorAndClose(minor);
                return;
            }
            fragmented11 = new Reassembly(m, nowNanos, firstByteNanos);
            return;
        }
        int requestId;
        try {
            requestId = RequestParser.leadingRequestId(m);
        } catch (RequestParser.Malformed e) {
            connection.messageErrorAndClose(minor);
            return;
        }
        if (fragmented12 == null) {
            fragmented12 = new HashMap<>();
        }
        if (fragmented12.size() >= config.maxFragmentedMessages() || fragmented12.containsKey(requestId)) {
            connection.messageErrorAndClose(minor);
            return;
        }
        fragmented12.put(requestId, new Reassembly(m, nowNanos, firstByteNanos));
    }

    /** {@code m} is a Fragment message: appended to its message, which is complete when it is the last. */
    void onFragment(byte[] m, int minor, long nowNanos) {
        Reassembly r;
        int bodyFrom;
        Integer requestId = null;
        if (minor == 0) {
            connection.messageErrorAndClose(0);
            return;
        } else if (minor == 1) {
            r = fragmented11;
            bodyFrom = Giop.HEADER_BYTES;
        } else {
            if (m.length < Giop.HEADER_BYTES + 4) {
                connection.messageErrorAndClose(minor);
                return;
            }
            requestId = RequestParser.leadingRequestId(m);
            r = fragmented12 == null ? null : fragmented12.get(requestId);
            bodyFrom = Giop.HEADER_BYTES + 4;
        }
        if (r == null) {
            connection.messageErrorAndClose(minor);
            return;
        }
        int add = m.length - bodyFrom;
        if ((long) r.length() + add > config.maxMessageBytes()) {
            counters.oversize.add(1);
            connection.messageErrorAndClose(minor);
            return;
        }
        r.append(m, bodyFrom, add, nowNanos);
        if (Giop.moreFragments(m)) {
            return;
        }
        if (minor == 1) {
            fragmented11 = null;
        } else {
            fragmented12.remove(requestId);
        }
        connection.complete(r.finish(), r.firstByteNanos);
    }

    /** Drops the GIOP 1.2 message {@code requestId} being reassembled; true when there was one. */
    boolean cancel(int requestId) {
        return fragmented12 != null && fragmented12.remove(requestId) != null;
    }

    /** True while a fragmented message is partly reassembled. */
    boolean any() {
        return fragmented11 != null || (fragmented12 != null && !fragmented12.isEmpty());
    }

    /** True when a fragmented message has made no progress since {@code deadlineNanos}. */
    boolean stalledSince(long deadlineNanos) {
        if (fragmented11 != null && fragmented11.progress.sinceNanos() < deadlineNanos) {
            return true;
        }
        if (fragmented12 != null) {
            for (Reassembly r : fragmented12.values()) {
                if (r.progress.sinceNanos() < deadlineNanos) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Bytes held by the messages being reassembled. */
    long heldBytes() {
        long held = 0;
        if (fragmented11 != null) {
            held += fragmented11.length();
        }
        if (fragmented12 != null) {
            for (Reassembly r : fragmented12.values()) {
                held += r.length();
            }
        }
        return held;
    }

    /** Drops every message being reassembled (the connection closed). */
    void drop() {
        fragmented11 = null;
        fragmented12 = null;
    }
}
