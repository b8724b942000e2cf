package org.irmi.orb.internal;

import java.nio.ByteBuffer;

/**
 * Cuts one connection's inbound bytes into whole GIOP messages: the 12-byte header, checked
 * against the version, the magic and the maximum message size, then the body into a
 * {@link MessageBuffer} that grows with the bytes that arrive. A request too large for the
 * inbound budget is never held: it is read into a {@link RefusedRequest}, answered and dropped.
 * Each complete message goes to {@link InboundConnection#onMessage}.
 *
 * <p>SELECTOR THREAD ONLY.
 */
final class GiopFramer {

    private final InboundConnection connection;
    private final SelectorLoop loop;
    /**
     * A header split across reads, until its last byte arrives (null otherwise). A header that
     * arrives whole is read into the loop's {@link SelectorLoop#headerScratch} instead, so an idle
     * connection holds no header array.
     */
    private byte[] partialHeader;
    private int headerFill;
    private MessageBuffer message;
    /** A request too large for the inbound budget, being answered and dropped instead of read (null: none). */
    private RefusedRequest refused;
    /** Real progress of the message being read (see {@link ProgressClock}). */
    private final ProgressClock messageClock;
    /** The turn time ({@code nowNanos}) that read the first byte of the message being read. */
    private long messageFirstByteNanos;

    GiopFramer(InboundConnection connection, SelectorLoop loop, long nowNanos) {
        this.connection = connection;
        this.loop = loop;
        this.messageClock = new ProgressClock(nowNanos);
    }

    /** Takes every byte of {@code in}, handing on each message it completes, until the connection closes. */
    void consume(ByteBuffer in, long nowNanos) {
        while (!connection.isClosed()) {
            if (refused != null) {
                messageClock.onBytes(refused.read(in), nowNanos);
                if (!refused.done()) {
                    return;
                }
                RefusedRequest r = refused;
                refused = null;
                loop.earlyReplies.refuseOverBudget(connection, r); // answered once all of it is in, as a client expects
                continue;
            }
            if (message == null) {
                if (!in.hasRemaining()) {
                    return;
                }
                if (headerFill == 0) {
                    messageClock.restart(nowNanos);
                    messageFirstByteNanos = nowNanos;
                }
                byte[] header;
                if (headerFill == 0 && in.remaining() >= Giop.HEADER_BYTES) {
                    header = loop.headerScratch; // used up before this method returns
                    in.get(header, 0, Giop.HEADER_BYTES);
                    messageClock.onBytes(Giop.HEADER_BYTES, nowNanos);
                } else {
                    if (partialHeader == null) {
                        partialHeader = new byte[Giop.HEADER_BYTES];
                    }
                    int n = Math.min(Giop.HEADER_BYTES - headerFill, in.remaining());
                    in.get(partialHeader, headerFill, n);
                    headerFill += n;
                    messageClock.onBytes(n, nowNanos);
                    if (headerFill < Giop.HEADER_BYTES) {
                        return;
                    }
                    headerFill = 0;
                    header = partialHeader;
                    partialHeader = null;
                }
                Giop.HeaderCheck check = Giop.check(header, loop.config.maxMessageBytes());
                if (check != Giop.HeaderCheck.OK) {
                    if (check == Giop.HeaderCheck.TOO_LARGE) {
                        loop.counters.oversize.add(1);
                    }
                    connection.messageErrorAndClose(check == Giop.HeaderCheck.BAD_VERSION
                            || check == Giop.HeaderCheck.BAD_MAGIC ? 0 : Giop.minor(header));
                    return;
                }
                long total = Giop.HEADER_BYTES + Giop.bodySize(header);
                if (Giop.type(header) == Giop.REQUEST && total > loop.budget.largestMessageBytes()) {
                    // could never be held: answered NO_MEMORY and dropped as it arrives (RefusedRequest)
                    loop.counters.oversize.add(1);
                    refused = new RefusedRequest(header, total);
                    continue;
                }
                // grows with the bytes that arrive, never allocated at the declared size
                message = new MessageBuffer(header, (int) total);
            }
            messageClock.onBytes(message.read(in), nowNanos);
            if (!message.complete()) {
                return;
            }
            byte[] complete = message.toMessage();
            message = null;
            connection.onMessage(complete, messageFirstByteNanos, nowNanos);
        }
    }

    /** True while a message is partly read (its header or its body). */
    boolean partial() {
        return headerFill > 0 || message != null;
    }

    /** True when a partly read message has made no progress since {@code deadlineNanos}. */
    boolean stalledSince(long deadlineNanos) {
        return partial() && messageClock.sinceNanos() < deadlineNanos;
    }

    /** Bytes of heap held by the message being read and by a refused request being dropped. */
    long heldBytes() {
        long held = message == null ? 0 : message.heldBytes();
        if (refused != null) {
            held += refused.heldBytes();
        }
        return held;
    }

    /**
     * Bytes the message being read may still add to what is held before it completes (0 when none
     * is being read, or when it is read into its exact-size array already).
     */
    long neededBytes() {
        return message == null ? 0 : message.growthBytes();
    }

    /** Drops the partly read message of a closed connection. */
    void drop() {
        message = null;
        partialHeader = null;
        headerFill = 0;
    }
}
