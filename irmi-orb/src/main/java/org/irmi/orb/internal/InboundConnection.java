package org.irmi.orb.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.irmi.orb.MessageAssemblyListener;

/**
 * One accepted server connection: its GIOP read state machine and fragment reassembly
 * (SELECTOR THREAD ONLY), and its bounded outbound buffer (any thread, under a short lock that
 * is never held across blocking I/O: the channel is non-blocking).
 */
final class InboundConnection {

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
    private static final long STREAM_QUIET_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(
            org.irmi.orb.IrmiHooks.STREAM_QUIET_MILLIS);
    private static final int STAGE_INITIAL_BYTES = 512;

    final long id;
    final SocketChannel channel;
    /** The socket as GIOP sees it: plain, or the plain text inside TLS. */
    final Wire wire;
    final String peerAddress;
    private final SelectorLoop loop;
    SelectionKey key;
    volatile int readBudgetBytes;
    volatile long bytesRead;
    /** Turns that read the whole budget (the connection was backlogged). Written by the selector thread only. */
    volatile long budgetFilledTurns;
    IrmiServerGIOPConnection giop;

    // ---- inbound state, SELECTOR THREAD ONLY ----
    private final byte[] header = new byte[Giop.HEADER_BYTES];
    private int headerFill;
    private MessageBuffer message;
    /** A request too large for the inbound budget, being answered and dropped instead of read (null: none). */
    private RefusedRequest refused;
    /** Real progress of the message being read (see {@link ProgressClock}). */
    private final ProgressClock messageClock;
    private Reassembly fragmented11;
    private Map<Integer, Reassembly> fragmented12;
    long lastActivityNanos;
    /** Bytes of partly read messages and reassemblies, as last reported to the {@link InboundBudget}. */
    private long partialHeldBytes;
    /** Not read while the inbound budget is short (see {@link InboundBudget}). */
    boolean budgetPaused;
    /** A budget check for this connection is waiting on the selector (set by writers of unsent replies). */
    private final AtomicBoolean pauseCheckPosted = new AtomicBoolean();
    /** Not read while it holds its fair share of requests in flight (see {@link RequestShare}). SELECTOR THREAD ONLY. */
    boolean sharePaused;
    /** A share check for this connection is waiting on the selector (set by the threads that finish requests). */
    final AtomicBoolean shareCheckPosted = new AtomicBoolean();
    /** Its requests read and waiting for a slot, and what its requests cost (see {@link FairScheduler}). */
    final FairScheduler.Flow<SelectorLoop.Task> flow = new FairScheduler.Flow<>(SelectorLoop.INITIAL_REQUEST_COST_NANOS);
    /** Requests admitted (queued for or handed to JacORB) and not finished, as {@link RequestShare} counts them. */
    final AtomicInteger admittedRequests = new AtomicInteger();

    // ---- complete requests of this connection waiting for a dispatch worker: selector adds, workers release ----
    final AtomicLong queuedBytes = new AtomicLong();
    /**
     * Requests handed to JacORB and not finished: request id -> {bytes, nanoTime handed, 1 when it
     * counts in the fair share of requests until it ends (a reply is expected), else 0, its estimated
     * cost in nanoseconds of slot time (see {@link FairScheduler})}.
     */
    private final ConcurrentHashMap<Integer, long[]> running = new ConcurrentHashMap<>();
    /** The turn time ({@code nowNanos}) that read the first byte of the message being read. */
    private long messageFirstByteNanos;
    // ---- read pacing (ReadPacer), SELECTOR THREAD ONLY ----
    boolean readDeferred;
    boolean readGranted;
    boolean inAssemblingList;
    long readCredit;
    long deferredSinceNanos;
    boolean contending;
    /** What the messages completed since the pacer last asked cost beyond their bytes (see {@link ReadPacer}). */
    private long pacingSurcharge;

    // ---- dispatch state, shared with workers ----
    final AtomicInteger inFlight = new AtomicInteger();
    final Set<Integer> cancelledIds = ConcurrentHashMap.newKeySet();

    // ---- outbound state, guarded by outLock ----
    private final Object outLock = new Object();
    private final ArrayDeque<ByteBuffer> pending = new ArrayDeque<>();
    private long pendingBytes;
    private boolean messageOpen;
    private ArrayDeque<ByteBuffer> deferred;
    /** Small chunks of the JacORB message being written, not yet handed to the socket; grown on demand. */
    private byte[] stage;
    private int stageFill;
    private final AtomicBoolean closed = new AtomicBoolean();

    InboundConnection(long id, SocketChannel channel, String peerAddress, SelectorLoop loop, int readBudgetBytes,
                      long nowNanos) {
        this(id, channel, peerAddress, loop, readBudgetBytes, nowNanos, null);
    }

    /** @param tls the TLS of the port it was accepted on, or null for plain GIOP */
    InboundConnection(long id, SocketChannel channel, String peerAddress, SelectorLoop loop, int readBudgetBytes,
                      long nowNanos, TlsSettings tls) {
        this.id = id;
        this.channel = channel;
        try {
            this.wire = tls == null ? Wire.plain(channel) : new TlsWire(channel, tls.newEngine(), outLock, loop.tlsTasks(),
                    () -> loop.post(() -> loop.resumeTls(this)), this::onHandshakeDone, nowNanos);
        } catch (javax.net.ssl.SSLException e) {
            throw new IllegalStateException("cannot start TLS with " + peerAddress + ": " + e.getMessage(), e);
        }
        this.peerAddress = peerAddress;
        this.loop = loop;
        this.readBudgetBytes = readBudgetBytes;
        this.lastActivityNanos = nowNanos;
        this.messageClock = new ProgressClock(nowNanos);
    }

    boolean isClosed() {
        return closed.get();
    }

    long pendingOutboundBytes() {
        synchronized (outLock) {
            return pendingBytes;
        }
    }

    // ------------------------------------------------------------------ reading

    /**
     * Reads at most this connection's budget and handles every message completed by it.
     * SELECTOR THREAD ONLY.
     *
     * <p>The budget shares the reader between connections that have data. When this connection is
     * the only readable one in the turn ({@code solo}), nothing waits behind it, so it may read up
     * to {@code soloBudgetBytes} (still a bound: a connection that becomes readable meanwhile waits
     * at most one such turn). Ending a solo turn early only costs a select call per budget, and with
     * a small receive buffer it also delays the window update the sender is waiting for: a 16 KiB
     * budget on a 64 KiB buffer made a lone 8 MB request take twice as long to arrive.
     *
     * @param solo            true when no other connection was readable when this turn began
     * @param soloBudgetBytes the bound of a solo turn; the connection's own budget when larger
     * @return the bytes read in this turn
     */
    int readTurn(ByteBuffer readBuffer, long nowNanos, boolean solo, int soloBudgetBytes) {
        int budget = Math.max(1, readBudgetBytes);
        if (solo) {
            budget = Math.max(budget, soloBudgetBytes);
        }
        int readThisTurn = 0;
        if (readPaused()) {
            return 0; // selected in the same turn as it was paused
        }
        while (readThisTurn < budget && !closed.get() && !sharePaused) {
            readBuffer.clear();
            int want = Math.min(readBuffer.capacity(), budget - readThisTurn);
            readBuffer.limit(want);
            int n;
            try {
                n = wire.read(readBuffer);
            } catch (IOException e) { // SSLException included: a TLS protocol error ends the connection
                close();
                return readThisTurn;
            }
            if (n < 0) {
                close();
                return readThisTurn;
            }
            if (n == 0) {
                if (wire instanceof TlsWire t && t.busy()) {
                    loop.pauseForTls(this); // read again when the handshake's tasks are done
                }
                return readThisTurn;
            }
            readThisTurn += n;
            bytesRead += n;
            loop.counters.bytesRead.add(n);
            if (nowNanos - lastActivityNanos > STREAM_QUIET_NANOS) {
                loop.onStreamActive();
            }
            lastActivityNanos = nowNanos;
            readBuffer.flip();
            consume(readBuffer, nowNanos);
            if (n < want) {
                return readThisTurn; // the socket had less than we asked for: drained for now
            }
        }
        if (readThisTurn >= budget) {
            budgetFilledTurns++; // single writer: the selector thread
        }
        return readThisTurn;
    }

    private void consume(ByteBuffer in, long nowNanos) {
        try {
            consumeMessages(in, nowNanos);
        } finally {
            reportHeld();
        }
    }

    private void consumeMessages(ByteBuffer in, long nowNanos) {
        while (!closed.get()) {
            if (refused != null) {
                messageClock.onBytes(refused.read(in), nowNanos);
                if (!refused.done()) {
                    return;
                }
                RefusedRequest r = refused;
                refused = null;
                loop.refuseOverBudget(this, r); // answered once all of it is in, as a client expects
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
                int n = Math.min(Giop.HEADER_BYTES - headerFill, in.remaining());
                in.get(header, headerFill, n);
                headerFill += n;
                messageClock.onBytes(n, nowNanos);
                if (headerFill < Giop.HEADER_BYTES) {
                    return;
                }
                headerFill = 0;
                Giop.HeaderCheck check = Giop.check(header, loop.config.maxMessageBytes());
                if (check != Giop.HeaderCheck.OK) {
                    if (check == Giop.HeaderCheck.TOO_LARGE) {
                        loop.counters.oversize.add(1);
                    }
                    messageErrorAndClose(check == Giop.HeaderCheck.BAD_VERSION || check == Giop.HeaderCheck.BAD_MAGIC
                            ? 0 : Giop.minor(header));
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
            pacingSurcharge += loop.pacer.surcharge(complete.length);
            onMessage(complete, nowNanos);
        }
    }

    private void onMessage(byte[] m, long nowNanos) {
        int type = Giop.type(m);
        int minor = Giop.minor(m);
        switch (type) {
            case Giop.REQUEST:
            case Giop.LOCATE_REQUEST:
            case Giop.REPLY: // replies to this server's callbacks, bi-directional GIOP
            case Giop.LOCATE_REPLY:
                if (Giop.moreFragments(m)) {
                    startFragmented(m, minor, nowNanos);
                } else {
                    complete(m, messageFirstByteNanos);
                }
                return;
            case Giop.FRAGMENT:
                onFragment(m, minor, nowNanos);
                return;
            case Giop.CANCEL_REQUEST:
                onCancel(m);
                return;
            case Giop.CLOSE_CONNECTION:
            case Giop.MESSAGE_ERROR:
                close();
                return;
            default:
                // unknown types
                messageErrorAndClose(minor);
        }
    }

    private void startFragmented(byte[] m, int minor, long nowNanos) {
        if (minor == 1) {
            if (fragmented11 != null) {
                messageErrorAndClose(minor);
                return;
            }
            fragmented11 = new Reassembly(m, nowNanos, messageFirstByteNanos);
            return;
        }
        int requestId;
        try {
            requestId = RequestParser.leadingRequestId(m);
        } catch (RequestParser.Malformed e) {
            messageErrorAndClose(minor);
            return;
        }
        if (fragmented12 == null) {
            fragmented12 = new HashMap<>();
        }
        if (fragmented12.size() >= loop.config.maxFragmentedMessages() || fragmented12.containsKey(requestId)) {
            messageErrorAndClose(minor);
            return;
        }
        fragmented12.put(requestId, new Reassembly(m, nowNanos, messageFirstByteNanos));
    }

    private void onFragment(byte[] m, int minor, long nowNanos) {
        Reassembly r;
        int bodyFrom;
        Integer requestId = null;
        if (minor == 0) {
            messageErrorAndClose(0);
            return;
        } else if (minor == 1) {
            r = fragmented11;
            bodyFrom = Giop.HEADER_BYTES;
        } else {
            if (m.length < Giop.HEADER_BYTES + 4) {
                messageErrorAndClose(minor);
                return;
            }
            requestId = RequestParser.leadingRequestId(m);
            r = fragmented12 == null ? null : fragmented12.get(requestId);
            bodyFrom = Giop.HEADER_BYTES + 4;
        }
        if (r == null) {
            messageErrorAndClose(minor);
            return;
        }
        int add = m.length - bodyFrom;
        if ((long) r.length() + add > loop.config.maxMessageBytes()) {
            loop.counters.oversize.add(1);
            messageErrorAndClose(minor);
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
        complete(r.finish(), r.firstByteNanos);
    }

    private void onCancel(byte[] m) {
        int requestId;
        try {
            requestId = RequestParser.leadingRequestId(m);
        } catch (RequestParser.Malformed e) {
            messageErrorAndClose(Giop.minor(m));
            return;
        }
        if (fragmented12 != null && fragmented12.remove(requestId) != null) {
            loop.counters.cancelled.add(1);
            return;
        }
        // Remembered so a worker drops the request if it is still queued; bounded, since a
        // cancel for a request already dispatched is never consumed.
        if (cancelledIds.size() < 1024) {
            cancelledIds.add(requestId);
        }
    }

    private void complete(byte[] m, long firstByteNanos) {
        loop.counters.messagesRead.add(1);
        MessageAssemblyListener listener = loop.messageAssemblyListener();
        if (listener != null) {
            listener.onAssembled(id, m.length, firstByteNanos, System.nanoTime());
        }
        loop.onRequest(this, m);
    }

    /**
     * True when a partly read message, or a fragmented message, has made no progress since
     * {@code deadlineNanos}. A large message that keeps arriving is never stalled.
     */
    boolean stalledSince(long deadlineNanos) {
        if ((headerFill > 0 || message != null) && messageClock.sinceNanos() < deadlineNanos) {
            return true;
        }
        if (wire.handshakeStalledSince(deadlineNanos)) {
            return true;
        }
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

    /** Reports the bytes held by partial messages and reassemblies to the budget. SELECTOR THREAD ONLY. */
    private void reportHeld() {
        long held = message == null ? 0 : message.heldBytes();
        if (refused != null) {
            held += refused.heldBytes();
        }
        if (fragmented11 != null) {
            held += fragmented11.length();
        }
        if (fragmented12 != null) {
            for (Reassembly r : fragmented12.values()) {
                held += r.length();
            }
        }
        if (held != partialHeldBytes) {
            loop.budget.addPartial(held - partialHeldBytes);
            partialHeldBytes = held;
        }
    }

    /** Bytes this connection holds: partial messages, reassemblies, queued requests and unsent replies. */
    long inboundHeldBytes() {
        return partialHeldBytes + queuedBytes.get() + pendingOutboundBytes();
    }

    /**
     * Bytes the message being read may still add to what is held before it completes (0 when none
     * is being read, or when it is read into its exact-size array already). SELECTOR THREAD ONLY.
     */
    long inboundNeededBytes() {
        return message == null ? 0 : message.growthBytes();
    }

    /** Drops partial messages and reassemblies of a closed connection and returns their bytes to the budget. SELECTOR THREAD ONLY. */
    void releaseInbound() {
        for (SelectorLoop.Task t : loop.dropWaiting(this)) { // read, never admitted: nobody else will release them
            inFlight.decrementAndGet();
            queuedBytes.addAndGet(-t.message().length);
            loop.budget.addQueued(-t.message().length);
        }
        message = null;
        headerFill = 0;
        fragmented11 = null;
        fragmented12 = null;
        reportHeld();
    }

    /**
     * What the messages completed since the last call cost beyond their bytes under read pacing:
     * {@link ReadPacer#surcharge} of each. SELECTOR THREAD ONLY.
     */
    long takePacingSurcharge() {
        long s = pacingSurcharge;
        pacingSurcharge = 0;
        return s;
    }

    /**
     * Keeps a request's bytes counted (in this connection's queued bytes and the inbound budget)
     * after it was handed to JacORB, which may queue it in the POA and run it later, until
     * {@link #requestFinished} (its reply, exception or oneway end, from the server interceptor)
     * or the connection closes. Without this, requests waiting in the POA's queue were counted by
     * nobody, and their replies arrived in a burst the budget had not seen coming. Any thread.
     *
     * @param costNanos the request's estimated cost, corrected by what it took when it ends ({@link FairScheduler.Flow#ended})
     * @return true when the bytes are now held here (false: the caller releases them)
     */
    boolean holdUntilFinished(int requestId, int bytes, long nowNanos, boolean replyExpected, long costNanos) {
        if (closed.get()) {
            return false;
        }
        long[] prev = running.put(requestId, new long[] {bytes, nowNanos, replyExpected ? 1 : 0, costNanos});
        if (prev != null) {
            release(prev); // a client that reuses a request id: the older entry is gone
        }
        if (closed.get()) {
            releaseRunning(); // closed meanwhile: close() may have missed this entry
        }
        return true;
    }

    /**
     * The request {@code requestId} has finished (its reply is being written, or the server
     * interceptor saw its end): its bytes leave the budget, and it leaves the fair share. Any thread;
     * a second report of the same end does nothing.
     */
    void requestFinished(int requestId) {
        long[] held = running.remove(requestId);
        if (held != null) {
            // what it cost: the time it held its slot, from its hand-off to JacORB to its end
            flow.ended(held[3], loop.nanoTime() - held[1]);
            release(held);
        }
    }

    /** A sampled request of this connection ran: see {@link CoreSamples#record}. Any thread. */
    void requestSampled(long activeNanos, long cpuNanos) {
        loop.coreSamples.record(activeNanos, cpuNanos);
    }

    /**
     * Stops counting requests handed to JacORB before {@code nanos} that never reported an end (a
     * path without interceptors): accounting only, so a leak cannot pause a connection for good.
     */
    void forgetRunningStartedBefore(long nanos) {
        if (running.isEmpty()) {
            return;
        }
        for (Map.Entry<Integer, long[]> e : running.entrySet()) {
            if (e.getValue()[1] - nanos < 0 && running.remove(e.getKey(), e.getValue())) {
                release(e.getValue());
            }
        }
    }

    private void releaseRunning() {
        for (Integer id : running.keySet()) {
            requestFinished(id);
        }
    }

    private void release(long[] entry) {
        queuedBytes.addAndGet(-entry[0]);
        loop.budget.addQueued(-entry[0]);
        if (entry[2] != 0) {
            loop.requestEnded(this);
        }
    }

    /** True while this connection is not to be read: the inbound budget or its share of requests paused it. */
    boolean readPaused() {
        return budgetPaused || sharePaused;
    }

    /** True while a message (or a fragmented one) is partly read. SELECTOR THREAD ONLY. */
    boolean assembling() {
        return headerFill > 0 || message != null || fragmented11 != null
                || (fragmented12 != null && !fragmented12.isEmpty());
    }

    /** True when nothing is partly read, queued, running or waiting to be written. */
    boolean isQuiet() {
        return headerFill == 0 && message == null && fragmented11 == null
                && (fragmented12 == null || fragmented12.isEmpty()) && inFlight.get() == 0
                && (giop == null || !giop.hasPendingMessages()) && pendingOutboundBytes() == 0;
    }

    void messageErrorAndClose(int minor) {
        loop.counters.messageErrors.add(1);
        send(Giop.emptyMessage(Giop.MESSAGE_ERROR, minor));
        close();
    }

    // ------------------------------------------------------------------ writing

    /** Sends one whole message; any thread. Returns false when the connection is closed. */
    boolean send(byte[] bytes) {
        return send(new ByteBuffer[] {ByteBuffer.wrap(bytes)});
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
        synchronized (outLock) {
            if (closed.get()) {
                return false;
            }
            if (length <= STAGE_BYTES - stageFill) {
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
        synchronized (outLock) {
            if (stageFill > 0) {
                staged = ByteBuffer.wrap(stage, 0, stageFill);
                stageFill = 0;
            }
        }
        if (staged != null) {
            write(new ByteBuffer[] {staged}, true);
        }
        boolean wantWrite = false;
        synchronized (outLock) {
            messageOpen = false;
            if (deferred != null && !deferred.isEmpty()) {
                pending.addAll(deferred);
                deferred.clear();
                wantWrite = true;
            }
        }
        if (wantWrite) {
            loop.requestWrite(this);
        }
    }

    private boolean write(ByteBuffer[] buffers, boolean chunkOfOpenMessage) {
        boolean ioFailed = false;
        boolean overflow = false;
        boolean wantWrite = false;
        boolean copied = false;
        synchronized (outLock) {
            if (closed.get()) {
                return false;
            }
            int i = 0;
            ArrayDeque<ByteBuffer> target = pending;
            if (chunkOfOpenMessage) {
                messageOpen = true;
            } else if (messageOpen) {
                if (deferred == null) {
                    deferred = new ArrayDeque<>();
                }
                target = deferred; // after the half-written reply
            }
            if (target == pending && pending.isEmpty()) {
                boolean sealedLeft = false;
                try {
                    i = writeNow(buffers);
                    sealedLeft = !wire.flush(); // TLS: records sealed but not yet taken by the socket
                } catch (IOException e) {
                    ioFailed = true;
                }
                if (!ioFailed && i == buffers.length && !sealedLeft) {
                    return true;
                }
                wantWrite = !ioFailed && (i < buffers.length || sealedLeft) && wire.writable();
            }
            if (!ioFailed) {
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
            close();
            return false;
        }
        if (overflow) {
            loop.counters.outboundOverflowCloses.add(1);
            close();
            return false;
        }
        if (wantWrite) {
            loop.requestWrite(this);
        }
        if (copied && loop.budget.shouldPause(inboundHeldBytes()) && pauseCheckPosted.compareAndSet(false, true)) {
            loop.post(() -> {
                pauseCheckPosted.set(false);
                loop.pauseIfOverBudget(this);
            });
        }
        return true;
    }

    /** Writes queued replies on OP_WRITE, a bounded number of slices per turn. SELECTOR THREAD ONLY. */
    void flushPending() {
        boolean ioFailed = false;
        boolean sealedLeft = false;
        synchronized (outLock) {
            try {
                sealedLeft = !wire.flush();
                if (sealedLeft || !wire.writable()) {
                    // the socket is full, or a TLS handshake is on: written when it is done
                    // (onHandshakeDone), so no OP_WRITE spin meanwhile
                    if (!sealedLeft && key != null && key.isValid()) {
                        key.interestOps(loop.reading() && !readPaused() && !readDeferred ? SelectionKey.OP_READ : 0);
                    }
                    return;
                }
                for (int spin = 0; spin < WRITE_SPINS && !pending.isEmpty(); spin++) {
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
                sealedLeft = !wire.flush();
            } catch (IOException e) {
                ioFailed = true;
            }
            if (!ioFailed && pending.isEmpty() && !sealedLeft && key != null && key.isValid()) {
                key.interestOps(loop.reading() && !readPaused() && !readDeferred ? SelectionKey.OP_READ : 0);
            }
        }
        if (ioFailed) {
            close();
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
                if (i == buffers.length || wire.write(buffers, i, buffers.length - i) == 0) {
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
            return wire.write(b);
        } finally {
            b.limit(limit);
        }
    }

    /** The TLS handshake finished: what waited for it is written. SELECTOR THREAD ONLY. */
    private void onHandshakeDone() {
        loop.counters.tlsHandshakes.add(1);
        if (pendingOutboundBytes() > 0) {
            loop.requestWrite(this);
        }
    }

    /** Sends CloseConnection if it fits into the socket right now, then closes. Any thread. */
    void closeGracefully() {
        if (pendingOutboundBytes() == 0) {
            send(Giop.emptyMessage(Giop.CLOSE_CONNECTION, 0));
        }
        close();
    }

    /** Closes the channel; idempotent; any thread. */
    void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        synchronized (outLock) {
            pending.clear();
            stage = null;
            stageFill = 0;
            if (deferred != null) {
                deferred.clear();
            }
            loop.budget.addOutbound(-pendingBytes);
            pendingBytes = 0;
        }
        releaseRunning();
        loop.onClosed(this);
        IrmiServerGIOPConnection g = giop;
        if (g != null) {
            g.transportClosed();
        }
    }
}
