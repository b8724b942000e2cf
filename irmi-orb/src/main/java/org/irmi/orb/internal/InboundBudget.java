package org.irmi.orb.internal;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One memory budget for everything the transport holds: bytes of partly received messages and
 * fragment reassemblies, complete requests waiting for a dispatch worker, and replies copied into
 * connections' outbound buffers because their clients do not read them fast enough (a connection
 * that does not read its replies is paused like one that sends too much).
 *
 * <p>Why: per-connection limits do not add up to a bound. With 64 fragmented messages of 64 MiB
 * allowed per connection, a handful of clients could still take the heap. This budget is the
 * transport-wide bound, and it decides who pays when it fills:
 * <ul>
 *   <li>above the high-water mark ({@code 3/4} of the limit), a connection that holds at least a
 *       share of the budget ({@code limit / 32}, at least 64 KiB) is paused after its read turn: it
 *       is no longer read, so TCP pushes back on its sender. Connections holding less, the small
 *       requests of other clients, keep being read;</li>
 *   <li>above the limit, the connections holding the most are closed until it is met;</li>
 *   <li>a paused connection is read again when what it still needs to complete its message fits
 *       under the high-water mark; if it never does, the stall timeout closes it;</li>
 *   <li>a request declared larger than the high-water mark could never complete: it is refused at
 *       its header with {@code NO_MEMORY}, and its bytes are dropped as they arrive
 *       ({@link RefusedRequest}).</li>
 * </ul>
 * Pure arithmetic: the selector loop acts on the answers.
 *
 * <p>THREADS: partial bytes are the SELECTOR THREAD's only; queued bytes are added by the selector
 * and released by dispatch workers; outbound bytes change on any thread that writes replies.
 */
final class InboundBudget {

    static final long MIN_SHARE_BYTES = 64 * 1024;
    static final long MIN_DEFAULT_LIMIT_BYTES = 8L * 1024 * 1024;

    private final long limitBytes;
    private final long highWaterBytes;
    private final long shareBytes;
    private volatile long partialBytes; // written by the selector only; volatile for the gauge
    private final AtomicLong queuedBytes = new AtomicLong();
    private final AtomicLong outboundBytes = new AtomicLong();

    InboundBudget(long limitBytes) {
        if (limitBytes < 1) {
            throw new IllegalArgumentException("limitBytes must be >= 1 but is " + limitBytes);
        }
        this.limitBytes = limitBytes;
        this.highWaterBytes = limitBytes - limitBytes / 4;
        this.shareBytes = Math.max(MIN_SHARE_BYTES, limitBytes / 32);
    }

    /**
     * The default limit: a quarter of the maximum heap (at least 8 MiB). A message in assembly may
     * briefly hold twice its bytes (see {@link MessageBuffer}), so even then half the heap is left.
     */
    static long defaultLimit(long maxHeapBytes) {
        long heap = maxHeapBytes == Long.MAX_VALUE ? 4L * 1024 * 1024 * 1024 : maxHeapBytes;
        return Math.max(MIN_DEFAULT_LIMIT_BYTES, heap / 4);
    }

    /**
     * The largest message a connection could ever hold: the high-water mark. A connection past it
     * is paused, and resumes only when what it still needs fits under the mark, so a message declared
     * larger could never complete; the transport refuses such a request at its header.
     */
    long largestMessageBytes() {
        return highWaterBytes;
    }

    long limitBytes() {
        return limitBytes;
    }

    long shareBytes() {
        return shareBytes;
    }

    /** Bytes held now: partial, queued and unsent replies. */
    long heldBytes() {
        return partialBytes + queuedBytes.get() + outboundBytes.get();
    }

    /** Partly received bytes changed by {@code delta}. SELECTOR THREAD ONLY. */
    void addPartial(long delta) {
        partialBytes += delta;
    }

    /** A complete request of {@code bytes} was queued ({@code > 0}) or left the queue ({@code < 0}). Any thread. */
    void addQueued(long delta) {
        queuedBytes.addAndGet(delta);
    }

    /** Unsent reply bytes copied into a connection's outbound buffer ({@code > 0}) or written or dropped ({@code < 0}). Any thread. */
    void addOutbound(long delta) {
        outboundBytes.addAndGet(delta);
    }

    /** True when the limit is exceeded: the largest holders must be closed. */
    boolean overLimit() {
        return heldBytes() > limitBytes;
    }

    /** True when a connection holding {@code connectionHeldBytes} should stop being read. */
    boolean shouldPause(long connectionHeldBytes) {
        return heldBytes() > highWaterBytes && connectionHeldBytes >= shareBytes;
    }

    /** True when a paused connection that needs {@code neededBytes} more to complete may be read again. */
    boolean mayResume(long neededBytes) {
        return heldBytes() + neededBytes <= highWaterBytes;
    }
}
