package org.irmi.orb.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * The bytes of one accepted connection as GIOP sees them: the socket itself ({@link #plain}), or
 * the plain text inside TLS ({@link TlsWire}). Non-blocking: every call does what it can now.
 *
 * <p>THREADS: {@link #read} on the selector thread only; {@link #write} and {@link #flush} under
 * the connection's outbound lock.
 */
interface Wire {

    /** Reads GIOP bytes into {@code dst}: how many, 0 when none are there now, -1 at the end. */
    int read(ByteBuffer dst) throws IOException;

    /** Writes GIOP bytes from {@code srcs}: how many were taken (0 when none can be now). */
    long write(ByteBuffer[] srcs, int offset, int length) throws IOException;

    /** As {@link #write(ByteBuffer[], int, int)} for one buffer. */
    default int write(ByteBuffer src) throws IOException {
        return (int) write(new ByteBuffer[] {src}, 0, 1);
    }

    /**
     * Writes what the wire itself holds (TLS records already sealed); true when nothing is left.
     * The connection asks for OP_WRITE while it returns false.
     */
    default boolean flush() throws IOException {
        return true;
    }

    /** True when bytes were read from the socket but not yet given out: read again without waiting for the socket. */
    default boolean hasBufferedInput() {
        return false;
    }

    /** False while GIOP bytes cannot be written yet (a TLS handshake in progress). */
    default boolean writable() {
        return true;
    }

    /** True when a TLS handshake began before {@code deadlineNanos} and has not finished. */
    default boolean handshakeStalledSince(long deadlineNanos) {
        return false;
    }

    /** The socket, read and written as it is. */
    static Wire plain(SocketChannel channel) {
        return new Wire() {
            @Override
            public int read(ByteBuffer dst) throws IOException {
                return channel.read(dst);
            }

            @Override
            public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
                return channel.write(srcs, offset, length);
            }

            @Override
            public int write(ByteBuffer src) throws IOException {
                return channel.write(src);
            }
        };
    }
}
