package org.irmi.orb.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.util.ArrayDeque;

/**
 * One connection's outbound bytes: whole messages (replies, rejections, MessageError) and the
 * chunks of the JacORB message being written, written at once as far as the socket takes them,
 * the rest queued and flushed by the selector on OP_WRITE. Small chunks of a JacORB message are
 * gathered and written together; messages never interleave. Past {@code max_outbound_bytes} the
 * connection is closed.
 *
 * <p>THREADING: any thread, under a short lock that is never held across blocking I/O (the channel
 * is non-blocking). The lock is the one the connection's {@link TlsWire} seals records under.
 */
final class OutboundBuffer {

    /** Largest slice handed to one write call, so the JDK's per-thread temporary direct buffers stay small. */
    private static final int WRITE_SLICE_BYTES = 256 * 1024;
    /** Bounded work per OP_WRITE turn. */
    private static final int WRITE_SPINS = 16;
    /**
     * Chunks of a JacORB message up to this size are gathered and written together at
     * {@link #endMessage} (or with the next larger chunk): a reply with service contexts comes
     * in three chunks, which would otherwise cost three system calls and three TCP segments.
     */
    static final int STAGE_BYTES = 8 * 1024;
    private static final int STAGE_INITIAL_BYTES = 512;
    /**
     * A stage no connection holds, one per writing thread: a connection holds a stage only while a
     * message is being written, so idle connections hold none, and a reply does not allocate one.
     */
    private static final ThreadLocal<byte[]> SPARE_STAGE = new ThreadLocal<>();

    private final InboundConnection connection;
    private final SelectorLoop loop;

    // ---- guarded by the connection's monitor (shared with its TlsWire) ----
    /** What the socket did not take, in order; made when first needed. */
    private ArrayDeque<ByteBuffer> pending;
    private long pendingBytes;
    private boolean messageOpen;
    private ArrayDeque<ByteBuffer> deferred;
    /**
     * Small chunks of the JacORB message being written, not yet handed to the socket; grown on
     * demand. Held from the message's first staged chunk to its {@link #endMessage}, then given back.
     */
    private byte[] stage;
    private int stageFill;

    /** Writes through {@code connection.wire}, under the connection's monitor (the lock its {@link TlsWire} shares). */
    OutboundBuffer(InboundConnection connection, SelectorLoop loop) {
        this.connection = connection;
        this.loop = loop;
    }

    long pendingBytes() {
        synchronized (connection) {
            return pendingBytes;
        }
    }

    /**
     * Sends the buffers as one whole message: written at once as far as the socket takes them,
     * the rest copied into this connection's outbound buffer and flushed by the selector on
     * OP_WRITE. While a JacORB reply is half written ({@link #writeChunk} without
     * {@link #endMessage}), the message waits until that reply is complete, so messages never
     * interleave. Past {@code max_outbound_bytes} the connection is closed. Any thread; never blocks.
     */
    boolean send(ByteBuffer[] buffers) {
        return write(buffers, false);
    }

    /**
     * Writes one chunk of a JacORB message. A small chunk is copied into this connection's stage
     * and goes out with the rest of the message; a large one is written (after what is staged, in
     * one gathering write) without copying when the socket takes it at once. JacORB recycles the
     * chunk's array right after, so whatever is not written is copied. JacORB's connection write
     * lock keeps one such writer at a time, from the first chunk to {@link #endMessage}.
     */
    boolean writeChunk(byte[] data, int offset, int length) {
        ByteBuffer staged = null;
        synchronized (connection) {
            if (connection.isClosed()) {
                return false;
            }
            if (length <= STAGE_BYTES - stageFill) {
                if (stage == null) {
                    stage = SPARE_STAGE.get();
                    SPARE_STAGE.set(null);
                }
                if (stage == null || stage.length - stageFill < length) {
                    int size = Math.min(STAGE_BYTES, Math.max(STAGE_INITIAL_BYTES, 2 * (stageFill + length)));
                    stage = stage == null ? new byte[size] : java.util.Arrays.copyOf(stage, size);
                }
                System.arraycopy(data, offset, stage, stageFill, length);
                stageFill += length;
                return true;
            }
            if (stageFill > 0) {
                // only this writer stages, and write() below copies what the socket does not take
                staged = ByteBuffer.wrap(stage, 0, stageFill);
                stageFill = 0;
            }
        }
        ByteBuffer chunk = ByteBuffer.wrap(data, offset, length);
        return write(staged == null ? new ByteBuffer[] {chunk} : new ByteBuffer[] {staged, chunk}, true);
    }

    /** The JacORB message written by {@link #writeChunk} is complete: write what is staged, release deferred messages. */
    void endMessage() {
        ByteBuffer staged = null;
        synchronized (connection) {
            if (stageFill > 0) {
                staged = ByteBuffer.wrap(stage, 0, stageFill);
                stageFill = 0;
            }
        }
        if (staged != null) {
            write(new ByteBuffer[] {staged}, true); // copies what the socket does not take: the stage is free after
        }
        boolean wantWrite = false;
        byte[] free = null;
        synchronized (connection) {
            messageOpen = false;
            if (stageFill == 0) {
                free = stage;
                stage = null;
            }
            if (deferred != null && !deferred.isEmpty()) {
                pending().addAll(deferred);
                deferred.clear();
                wantWrite = true;
            }
        }
        if (free != null) {
            SPARE_STAGE.set(free);
        }
        if (wantWrite) {
            loop.requestWrite(connection);
        }
    }

    private boolean write(ByteBuffer[] buffers, boolean chunkOfOpenMessage) {
        boolean ioFailed = false;
        boolean overflow = false;
        boolean wantWrite = false;
        boolean copied = false;
        synchronized (connection) {
            if (connection.isClosed()) {
                return false;
            }
            int i = 0;
            boolean behindOpenMessage = false;
            if (chunkOfOpenMessage) {
                messageOpen = true;
            } else if (messageOpen) {
                behindOpenMessage = true; // after the half-written reply
            }
            if (!behindOpenMessage && pendingEmpty()) {
                boolean sealedLeft = false;
                try {
                    i = writeNow(buffers);
                    sealedLeft = !connection.wire.flush(); // TLS: records sealed but not yet taken by the socket
                } catch (IOException e) {
                    ioFailed = true;
                }
                if (!ioFailed && i == buffers.length && !sealedLeft) {
                    return true;
                }
                wantWrite = !ioFailed && (i < buffers.length || sealedLeft) && connection.wire.writable();
            }
            if (!ioFailed) {
                ArrayDeque<ByteBuffer> target = behindOpenMessage ? deferred() : pending();
                for (; i < buffers.length; i++) {
                    ByteBuffer b = buffers[i];
                    if (b.hasRemaining()) {
                        ByteBuffer copy = ByteBuffer.allocate(b.remaining());
                        copy.put(b).flip();
                        target.add(copy);
                        pendingBytes += copy.remaining();
                        loop.budget.addOutbound(copy.remaining());
                        copied = true;
                    }
                }
                overflow = pendingBytes > loop.config.maxOutboundBytes();
            }
        }
        if (ioFailed) {
            connection.close();
            return false;
        }
        if (overflow) {
            loop.counters.outboundOverflowCloses.add(1);
            connection.close();
            return false;
        }
        if (wantWrite) {
            loop.requestWrite(connection);
        }
        if (copied) {
            connection.onRepliesQueued();
        }
        return true;
    }

    /** Writes queued replies on OP_WRITE, a bounded number of slices per turn. SELECTOR THREAD ONLY. */
    void flushPending() {
        boolean ioFailed = false;
        boolean sealedLeft = false;
        synchronized (connection) {
            SelectionKey key = connection.key;
            try {
                sealedLeft = !connection.wire.flush();
                if (sealedLeft || !connection.wire.writable()) {
                    // the socket is full, or a TLS handshake is on: written when it is done
                    // (onHandshakeDone), so no OP_WRITE spin meanwhile
                    if (!sealedLeft && key != null && key.isValid()) {
                        key.interestOps(connection.readInterestOps());
                    }
                    return;
                }
                for (int spin = 0; spin < WRITE_SPINS && !pendingEmpty(); spin++) {
                    ByteBuffer b = pending.peek();
                    int n = writeSlice(b);
                    pendingBytes -= n;
                    loop.budget.addOutbound(-n);
                    if (!b.hasRemaining()) {
                        pending.poll();
                    } else if (n == 0) {
                        break;
                    }
                }
                sealedLeft = !connection.wire.flush();
            } catch (IOException e) {
                ioFailed = true;
            }
            if (!ioFailed && pendingEmpty() && !sealedLeft && key != null && key.isValid()) {
                key.interestOps(connection.readInterestOps());
            }
        }
        if (ioFailed) {
            connection.close();
        }
    }

    /**
     * Writes as much of {@code buffers} as the socket takes now: one gathering write when they are
     * small enough together, else slice by slice. Returns the index of the first buffer with bytes left.
     */
    private int writeNow(ByteBuffer[] buffers) throws IOException {
        int i = 0;
        if (buffers.length > 1 && remaining(buffers) <= WRITE_SLICE_BYTES) {
            while (true) {
                while (i < buffers.length && !buffers[i].hasRemaining()) {
                    i++;
                }
                if (i == buffers.length || connection.wire.write(buffers, i, buffers.length - i) == 0) {
                    return i;
                }
            }
        }
        while (i < buffers.length) {
            ByteBuffer b = buffers[i];
            while (b.hasRemaining()) {
                if (writeSlice(b) == 0) {
                    break;
                }
            }
            if (b.hasRemaining()) {
                break;
            }
            i++;
        }
        return i;
    }

    private static long remaining(ByteBuffer[] buffers) {
        long n = 0;
        for (ByteBuffer b : buffers) {
            n += b.remaining();
        }
        return n;
    }

    private int writeSlice(ByteBuffer b) throws IOException {
        int limit = b.limit();
        if (b.remaining() > WRITE_SLICE_BYTES) {
            b.limit(b.position() + WRITE_SLICE_BYTES);
        }
        try {
            return connection.wire.write(b);
        } finally {
            b.limit(limit);
        }
    }

    /** Under the connection's monitor. */
    private boolean pendingEmpty() {
        return pending == null || pending.isEmpty();
    }

    /** Under the connection's monitor. */
    private ArrayDeque<ByteBuffer> pending() {
        if (pending == null) {
            pending = new ArrayDeque<>(4);
        }
        return pending;
    }

    /** Under the connection's monitor. */
    private ArrayDeque<ByteBuffer> deferred() {
        if (deferred == null) {
            deferred = new ArrayDeque<>(4);
        }
        return deferred;
    }

    /** Drops everything queued and returns its bytes to the budget (the connection closed). Any thread. */
    void discard() {
        synchronized (connection) {
            pending = null;
            stage = null;
            stageFill = 0;
            if (deferred != null) {
                deferred.clear();
            }
            loop.budget.addOutbound(-pendingBytes);
            pendingBytes = 0;
        }
    }
}
