package org.irmi.orb.internal;

import java.util.Arrays;

/**
 * One fragmented GIOP message being put together: the first message's bytes followed by each
 * fragment's body.
 *
 * <p>The pieces are kept by reference (each fragment arrived in an array of its own, which
 * nothing else uses) and copied once, into an array of the exact size, when the last fragment
 * arrives. Growing one buffer by doubling copied every byte about three times (omniORB sends a
 * 64 KB request as eight 8 KB fragments). Small bodies are gathered into shared staging arrays,
 * so a peer sending tiny fragments cannot make the piece list outgrow the bytes it sent.
 *
 * <p>SELECTOR THREAD ONLY.
 */
final class Reassembly {

    /** Bodies smaller than this are copied into a staging array instead of kept by reference. */
    static final int SMALL_BODY_BYTES = 4096;

    private byte[][] parts = new byte[8][];
    private int[] from = new int[8];
    private int[] to = new int[8];
    private int count;
    private boolean lastIsStaging;
    private int length;
    /** Real progress (empty fragments are none); a reassembly without it for the stall timeout is dropped. */
    final ProgressClock progress;
    /** When the first byte of the first message was read (for the assembly time of the whole). */
    final long firstByteNanos;

    Reassembly(byte[] first, long nowNanos) {
        this(first, nowNanos, nowNanos);
    }

    Reassembly(byte[] first, long nowNanos, long firstByteNanos) {
        add(first, 0, first.length);
        this.length = first.length;
        this.progress = new ProgressClock(nowNanos);
        this.firstByteNanos = firstByteNanos;
    }

    int length() {
        return length;
    }

    /** Pieces held (for tests: bounded by the bytes received, whatever the fragment sizes). */
    int pieces() {
        return count;
    }

    /**
     * Appends {@code n} bytes of {@code src}, which must not change afterwards; the caller has
     * checked the total against the maximum.
     */
    void append(byte[] src, int offset, int n, long nowNanos) {
        progress.onBytes(n, nowNanos);
        if (n == 0) {
            return;
        }
        length += n;
        if (n >= SMALL_BODY_BYTES) {
            add(src, offset, offset + n);
            lastIsStaging = false;
            return;
        }
        int last = count - 1;
        if (lastIsStaging && parts[last].length - to[last] >= n) {
            System.arraycopy(src, offset, parts[last], to[last], n);
            to[last] += n;
            return;
        }
        byte[] staging = new byte[SMALL_BODY_BYTES];
        System.arraycopy(src, offset, staging, 0, n);
        add(staging, 0, n);
        lastIsStaging = true;
    }

    private void add(byte[] b, int start, int end) {
        if (count == parts.length) {
            parts = Arrays.copyOf(parts, count * 2);
            from = Arrays.copyOf(from, count * 2);
            to = Arrays.copyOf(to, count * 2);
        }
        parts[count] = b;
        from[count] = start;
        to[count] = end;
        count++;
    }

    /** The complete message with the fragment flag cleared and the total body size set. */
    byte[] finish() {
        byte[] m;
        if (count == 1 && from[0] == 0 && to[0] == parts[0].length) {
            m = parts[0];
        } else {
            m = new byte[length];
            int at = 0;
            for (int i = 0; i < count; i++) {
                int n = to[i] - from[i];
                System.arraycopy(parts[i], from[i], m, at, n);
                at += n;
            }
        }
        parts = null;
        m[6] = (byte) (m[6] & ~2);
        Giop.writeInt(m, 8, length - Giop.HEADER_BYTES, Giop.littleEndian(m));
        return m;
    }
}
