package org.irmi.orb.internal;

import java.nio.ByteBuffer;

/**
 * The bytes of one GIOP message while they arrive, held in memory that grows with the bytes
 * received, never at the size the header declares.
 *
 * <p>Why: the declared body size is a number a client writes. Allocating it up front let twenty
 * 12-byte headers that each declare 64 MiB, followed by one byte each, take 1.3 GB of heap. Here a
 * message first gets a chunk of at most {@link #FIRST_CHUNK_BYTES}; every further chunk is as large
 * as what has arrived so far (at most {@link #MAX_CHUNK_BYTES}), so the memory held is at most
 * twice the bytes received plus the first chunk. Once half the message has arrived, the rest is
 * read straight into an array of the exact size (which is then at most twice what arrived), so a
 * large message is copied once, half of it.
 *
 * <p>A message that fits the first chunk is read straight into an exact-size array and handed on
 * without a copy, as before.
 *
 * <p>SELECTOR THREAD ONLY.
 */
final class MessageBuffer {

    static final int FIRST_CHUNK_BYTES = 16 * 1024;
    static final int MAX_CHUNK_BYTES = 1024 * 1024;

    private final int totalBytes;
    /** Filled chunks before {@link #current}; null once the exact-size array is in use. */
    private byte[][] chunks = new byte[4][];
    private int chunkCount;
    private byte[] current;
    private int currentFill;
    private int received;
    private long heldBytes;

    /**
     * @param header     the 12 header bytes, already checked
     * @param totalBytes header plus declared body; checked against the maximum message size
     */
    MessageBuffer(byte[] header, int totalBytes) {
        this.totalBytes = totalBytes;
        current = new byte[Math.min(totalBytes, FIRST_CHUNK_BYTES)];
        heldBytes = current.length;
        if (current.length == totalBytes) {
            chunks = null; // a small message: the first chunk is the message
        }
        System.arraycopy(header, 0, current, 0, Giop.HEADER_BYTES);
        currentFill = Giop.HEADER_BYTES;
        received = Giop.HEADER_BYTES;
    }

    /** Takes as many bytes of {@code in} as belong to this message; returns how many. */
    int read(ByteBuffer in) {
        int taken = 0;
        while (in.hasRemaining() && received < totalBytes) {
            if (currentFill == current.length) {
                grow();
            }
            int n = Math.min(Math.min(current.length - currentFill, totalBytes - received), in.remaining());
            in.get(current, currentFill, n);
            currentFill += n;
            received += n;
            taken += n;
        }
        return taken;
    }

    private void grow() {
        int remaining = totalBytes - received;
        if (2L * received >= totalBytes) {
            byte[] whole = new byte[totalBytes];
            int at = 0;
            for (int i = 0; i < chunkCount; i++) {
                System.arraycopy(chunks[i], 0, whole, at, chunks[i].length);
                at += chunks[i].length;
            }
            System.arraycopy(current, 0, whole, at, currentFill);
            chunks = null;
            chunkCount = 0;
            current = whole;
            currentFill = received;
            heldBytes = totalBytes;
            return;
        }
        if (chunkCount == chunks.length) {
            chunks = java.util.Arrays.copyOf(chunks, chunkCount * 2);
        }
        chunks[chunkCount++] = current;
        current = new byte[Math.min(remaining, Math.min(MAX_CHUNK_BYTES, received))];
        currentFill = 0;
        heldBytes += current.length;
    }

    boolean complete() {
        return received == totalBytes;
    }

    /** Bytes still to arrive. */
    int remainingBytes() {
        return totalBytes - received;
    }

    int receivedBytes() {
        return received;
    }

    /**
     * Bytes this message may still add to {@link #heldBytes} before it completes: none once it is
     * read into its exact-size array, else up to the whole message (allocated when half has arrived).
     */
    long growthBytes() {
        return chunks == null ? 0 : totalBytes;
    }

    /** Bytes of heap this message holds now: at most twice {@link #receivedBytes} plus the first chunk. */
    long heldBytes() {
        return heldBytes;
    }

    /** The complete message; call once, when {@link #complete}. */
    byte[] toMessage() {
        if (chunks == null || chunkCount == 0) {
            return current; // exact size: a small message, or the rest read straight into the whole
        }
        byte[] whole = new byte[totalBytes];
        int at = 0;
        for (int i = 0; i < chunkCount; i++) {
            System.arraycopy(chunks[i], 0, whole, at, chunks[i].length);
            at += chunks[i].length;
        }
        System.arraycopy(current, 0, whole, at, currentFill);
        return whole;
    }
}
