package org.irmi.orb.internal;

import java.util.Arrays;

/**
 * One fragmented GIOP message being put together: the first message's bytes followed by each
 * fragment's body. Grows by doubling, never past the transport's maximum message size.
 *
 * <p>SELECTOR THREAD ONLY.
 */
final class Reassembly {

    private byte[] buf;
    private int length;
    /** When a fragment last arrived; a reassembly without progress for the stall timeout is dropped. */
    long lastProgressNanos;

    Reassembly(byte[] first, long nowNanos) {
        this.buf = first;
        this.length = first.length;
        this.lastProgressNanos = nowNanos;
    }

    int length() {
        return length;
    }

    /** Appends {@code n} bytes; the caller has checked the total against the maximum. */
    void append(byte[] src, int from, int n, long nowNanos) {
        lastProgressNanos = nowNanos;
        if (length + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, length + n));
        }
        System.arraycopy(src, from, buf, length, n);
        length += n;
    }

    /** The complete message with the fragment flag cleared and the total body size set. */
    byte[] finish() {
        byte[] m = length == buf.length ? buf : Arrays.copyOf(buf, length);
        m[6] = (byte) (m[6] & ~2);
        Giop.writeInt(m, 8, length - Giop.HEADER_BYTES, Giop.littleEndian(m));
        return m;
    }
}
