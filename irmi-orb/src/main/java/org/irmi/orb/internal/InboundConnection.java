package org.irmi.orb.internal;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.irmi.orb.MessageAssemblyListener;

/**
 * One accepted server connection: its state and the wiring of its parts. Its reads cut into GIOP
 * messages by a {@link GiopFramer}, fragmented messages put together by a
 * {@link FragmentReassembler} (both SELECTOR THREAD ONLY), its replies written through an
 * {@link OutboundBuffer} (any thread, under a short lock that is never held across blocking I/O:
 * the channel is non-blocking), and the accounting of its requests until they end.
 *
 * <p>MEMORY: a server holds one per open connection, idle ones included (10,000 is a case we
 * measure, docs/benchmarks/echo.md). So its counters and flags are plain fields updated through
 * {@link VarHandle}s rather than {@code Atomic*} objects, and what only some connections need (the
 * cancelled ids, the outbound queue, a scheduler queue) is made when first needed.
 */
final class InboundConnection {

    private static final VarHandle PAUSE_CHECK_POSTED;
    private static final VarHandle SHARE_CHECK_POSTED;
    private static final VarHandle ADMITTED_REQUESTS;
    private static final VarHandle QUEUED_BYTES;
    private static final VarHandle IN_FLIGHT;
    private static final VarHandle CLOSED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            PAUSE_CHECK_POSTED = l.findVarHandle(InboundConnection.class, "pauseCheckPosted", boolean.class);
            SHARE_CHECK_POSTED = l.findVarHandle(InboundConnection.class, "shareCheckPosted", boolean.class);
            ADMITTED_REQUESTS = l.findVarHandle(InboundConnection.class, "admittedRequests", int.class);
            QUEUED_BYTES = l.findVarHandle(InboundConnection.class, "queuedBytes", long.class);
            IN_FLIGHT = l.findVarHandle(InboundConnection.class, "inFlight", int.class);
            CLOSED = l.findVarHandle(InboundConnection.class, "closed", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final long STREAM_QUIET_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(
            org.irmi.orb.IrmiHooks.STREAM_QUIET_MILLIS);

    final long id;
    final SocketChannel channel;
    /** The socket as GIOP sees it: plain, or the plain text inside TLS. */
    final Wire wire;
    final String peerAddress;
    /** The peer's host address, as in {@link #peerAddress} (the same string object; see {@link ConnectionShedding}). */
    final String peerHost;
    private final SelectorLoop loop;
    SelectionKey key;
    volatile int readBudgetBytes;
    volatile long bytesRead;
    /** Turns that read the whole budget (the connection was backlogged). Written by the selector thread only. */
    volatile long budgetFilledTurns;
    IrmiServerGIOPConnection giop;

    // ---- inbound state, SELECTOR THREAD ONLY ----
    private final GiopFramer framer;
    /** Made at the connection's first fragmented message (most never send one). */
    private FragmentReassembler fragments;
    long lastActivityNanos;
    /** When it was accepted (the selector's clock). */
    final long acceptedNanos;
    /** True once a whole message (a fragmented one reassembled) was read: see {@link ConnectionShedding}. */
    boolean completedMessage;
    /** Bytes of partly read messages and reassemblies, as last reported to the {@link InboundBudget}. */
    private long partialHeldBytes;
    /** Not read while the inbound budget is short (see {@link InboundBudget}). */
    boolean budgetPaused;
    /** A budget check for this connection is waiting on the selector (set by writers of unsent replies). */
    @SuppressWarnings("unused") // through PAUSE_CHECK_POSTED
    private volatile boolean pauseCheckPosted;
    /** Not read while it holds its fair share of requests in flight (see {@link RequestShare}). SELECTOR THREAD ONLY. */
    boolean sharePaused;
    /** A share check for this connection is waiting on the selector (set by the threads that finish requests). */
    @SuppressWarnings("unused") // through SHARE_CHECK_POSTED
    private volatile boolean shareCheckPosted;
    /**
     * True once a request was read while another of this connection's was in flight or waiting: it
     * pipelines or multiplexes, and its requests never ask for the cores kept for closed-loop clients
     * ({@code light_reserve_cores}; see {@link RequestAdmission}). SELECTOR THREAD ONLY.
     */
    boolean pipelines;
    /** Its requests read and waiting for a slot, and what its requests cost (see {@link FairScheduler}). */
    final FairScheduler.Flow<RequestAdmission.Task> flow = new FairScheduler.Flow<>(SelectorLoop.INITIAL_REQUEST_COST_NANOS);
    /** Requests admitted (queued for or handed to JacORB) and not finished, as {@link RequestShare} counts them. */
    @SuppressWarnings("unused") // through ADMITTED_REQUESTS
    private volatile int admittedRequests;

    // ---- complete requests of this connection waiting for a dispatch worker: selector adds, workers release ----
    @SuppressWarnings("unused") // through QUEUED_BYTES
    private volatile long queuedBytes;
    /** Its requests handed to JacORB and not finished, counted until they end. */
    final RunningRequests running;
    /** The order in which its JacORB-way requests are handed to JacORB by the dispatch workers. */
    private volatile HandOffLane lane;

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
    @SuppressWarnings("unused") // through IN_FLIGHT
    private volatile int inFlight;
    /** Ids of requests the client cancelled while they may still be queued; made at the first such cancel. */
    private volatile Set<Integer> cancelledIds;

    // ---- outbound state: its lock is this object's monitor, shared by the TLS wire and the
    // outbound buffer (no lock object of its own: one object fewer per connection; nothing else locks on it) ----
    /** Its replies and other outbound messages, queued when the client does not read them. */
    final OutboundBuffer out;
    @SuppressWarnings("unused") // through CLOSED
    private volatile boolean closed;

    /** @param tls the TLS of the port it was accepted on, or null for plain GIOP */
    InboundConnection(long id, SocketChannel channel, String peerHost, int peerPort, SelectorLoop loop,
                      int readBudgetBytes, long nowNanos, TlsSettings tls) {
        String peerAddress = peerHost + ":" + peerPort;
        this.id = id;
        this.channel = channel;
        try {
            this.wire = tls == null ? Wire.plain(channel) : new TlsWire(channel, tls.newEngine(), this, loop.tlsReads.tasks(),
                    () -> loop.post(() -> loop.tlsReads.resume(this)), this::onHandshakeDone, nowNanos);
        } catch (javax.net.ssl.SSLException e) {
            throw new IllegalStateException("cannot start TLS with " + peerAddress + ": " + e.getMessage(), e);
        }
        this.peerAddress = peerAddress;
        this.peerHost = peerHost;
        this.loop = loop;
        this.readBudgetBytes = readBudgetBytes;
        this.lastActivityNanos = nowNanos;
        this.acceptedNanos = nowNanos;
        this.framer = new GiopFramer(this, loop, nowNanos);
        this.out = new OutboundBuffer(this, loop);
        this.running = new RunningRequests(this);
    }

    /** SELECTOR THREAD ONLY. */
    private FragmentReassembler fragments() {
        if (fragments == null) {
            fragments = new FragmentReassembler(this, loop.config, loop.counters);
        }
        return fragments;
    }

    /**
     * The order of this connection's JacORB-way hand-offs; made when the first one is handed on
     * (a connection whose requests all take the direct path never needs it). SELECTOR THREAD ONLY.
     */
    HandOffLane lane() {
        HandOffLane l = lane;
        if (l == null) {
            l = new HandOffLane();
            lane = l;
        }
        return l;
    }

    /** The lane of a request given a ticket ({@link #lane()} made it before the ticket). Any thread. */
    HandOffLane laneOfTicket() {
        return lane;
    }

    SelectorLoop loop() {
        return loop;
    }

    boolean isClosed() {
        return closed;
    }

    /** Adds {@code delta} to the requests read and not yet finished by a dispatch worker; returns the new count. Any thread. */
    int addInFlight(int delta) {
        return (int) IN_FLIGHT.getAndAdd(this, delta) + delta;
    }

    int inFlight() {
        return inFlight;
    }

    /** Adds {@code delta} to the bytes of complete requests held until they end. Any thread. */
    void addQueuedBytes(long delta) {
        QUEUED_BYTES.getAndAdd(this, delta);
    }

    /** Adds {@code delta} to the requests admitted and not finished ({@link RequestShare}); returns the new count. Any thread. */
    int addAdmittedRequests(int delta) {
        return (int) ADMITTED_REQUESTS.getAndAdd(this, delta) + delta;
    }

    int admittedRequests() {
        return admittedRequests;
    }

    /** Claims the posting of a share check for this connection; false when one is posted already. Any thread. */
    boolean claimShareCheck() {
        return SHARE_CHECK_POSTED.compareAndSet(this, false, true);
    }

    /** The posted share check runs: the next finished request may post another. SELECTOR THREAD ONLY. */
    void shareCheckRan() {
        shareCheckPosted = false;
    }

    /**
     * True (once) when the client cancelled request {@code requestId} while it was queued: the
     * dispatch worker drops it. Any thread.
     */
    boolean takeCancelled(int requestId) {
        Set<Integer> ids = cancelledIds;
        return ids != null && !ids.isEmpty() && ids.remove(requestId);
    }

    long pendingOutboundBytes() {
        return out.pendingBytes();
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
        while (readThisTurn < budget && !closed && !sharePaused) {
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
                    loop.tlsReads.pause(this); // read again when the handshake's tasks are done
                }
                return readThisTurn;
            }
            readThisTurn += n;
            bytesRead += n;
            loop.counters.bytesRead.add(n);
            if (nowNanos - lastActivityNanos > STREAM_QUIET_NANOS) {
                loop.connections.onStreamActive();
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
            framer.consume(in, nowNanos);
        } finally {
            reportHeld();
        }
    }

    /** A whole message arrived ({@link GiopFramer}): routed by its type. SELECTOR THREAD ONLY. */
    void onMessage(byte[] m, long firstByteNanos, long nowNanos) {
        pacingSurcharge += loop.pacer.surcharge(m.length);
        int type = Giop.type(m);
        int minor = Giop.minor(m);
        switch (type) {
            case Giop.REQUEST:
            case Giop.LOCATE_REQUEST:
            case Giop.REPLY: // replies to this server's callbacks, bi-directional GIOP
            case Giop.LOCATE_REPLY:
                if (Giop.moreFragments(m)) {
                    fragments().start(m, minor, nowNanos, firstByteNanos);
                } else {
                    complete(m, firstByteNanos);
                }
                return;
            case Giop.FRAGMENT:
                fragments().onFragment(m, minor, nowNanos);
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

    private void onCancel(byte[] m) {
        int requestId;
        try {
            requestId = RequestParser.leadingRequestId(m);
        } catch (RequestParser.Malformed e) {
            messageErrorAndClose(Giop.minor(m));
            return;
        }
        if (fragments != null && fragments.cancel(requestId)) {
            loop.counters.cancelled.add(1);
            return;
        }
        // Remembered so a worker drops the request if it is still queued; bounded, since a
        // cancel for a request already dispatched is never consumed.
        Set<Integer> ids = cancelledIds;
        if (ids == null) {
            ids = ConcurrentHashMap.newKeySet(); // the selector thread is the only writer of the field
            cancelledIds = ids;
        }
        if (ids.size() < 1024) {
            ids.add(requestId);
        }
    }

    /** A whole message, or the last fragment of one, is in: counted and handed to the loop. SELECTOR THREAD ONLY. */
    void complete(byte[] m, long firstByteNanos) {
        completedMessage = true;
        loop.counters.messagesRead.add(1);
        MessageAssemblyListener listener = loop.hooks.messageAssemblyListener();
        if (listener != null) {
            listener.onAssembled(id, m.length, firstByteNanos, System.nanoTime());
        }
        loop.admission.onRequest(this, m);
    }

    /**
     * True when a partly read message, or a fragmented message, has made no progress since
     * {@code deadlineNanos}. A large message that keeps arriving is never stalled.
     */
    boolean stalledSince(long deadlineNanos) {
        return framer.stalledSince(deadlineNanos) || wire.handshakeStalledSince(deadlineNanos)
                || (fragments != null && fragments.stalledSince(deadlineNanos));
    }

    /** Reports the bytes held by partial messages and reassemblies to the budget. SELECTOR THREAD ONLY. */
    private void reportHeld() {
        long held = framer.heldBytes() + (fragments == null ? 0 : fragments.heldBytes());
        if (held != partialHeldBytes) {
            loop.budget.addPartial(held - partialHeldBytes);
            partialHeldBytes = held;
        }
    }

    /** Bytes this connection holds: partial messages, reassemblies, queued requests and unsent replies. */
    long inboundHeldBytes() {
        return partialHeldBytes + queuedBytes + pendingOutboundBytes();
    }

    /**
     * Bytes the message being read may still add to what is held before it completes (0 when none
     * is being read, or when it is read into its exact-size array already). SELECTOR THREAD ONLY.
     */
    long inboundNeededBytes() {
        return framer.neededBytes();
    }

    /** Drops partial messages and reassemblies of a closed connection and returns their bytes to the budget. SELECTOR THREAD ONLY. */
    void releaseInbound() {
        for (RequestAdmission.Task t : loop.admission.dropWaiting(this)) { // read, never admitted: nobody else will release them
            addInFlight(-1);
            addQueuedBytes(-t.message().length);
            loop.budget.addQueued(-t.message().length);
        }
        framer.drop();
        if (fragments != null) {
            fragments.drop();
        }
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
     * The request {@code requestId} has finished (its reply is being written, or the server
     * interceptor saw its end): see {@link RunningRequests#requestFinished}. Any thread.
     */
    void requestFinished(int requestId) {
        running.requestFinished(requestId);
    }

    /** A sampled request of this connection ran: see {@link CoreSamples#record}. Any thread. */
    void requestSampled(long activeNanos, long cpuNanos) {
        loop.admission.coreSamples.record(activeNanos, cpuNanos);
    }

    /** True while this connection is not to be read: the inbound budget or its share of requests paused it. */
    boolean readPaused() {
        return budgetPaused || sharePaused;
    }

    /** The key's interest while nothing waits to be written: OP_READ unless reading is off or paused. */
    int readInterestOps() {
        return loop.reading() && !readPaused() && !readDeferred ? SelectionKey.OP_READ : 0;
    }

    /** True while a message (or a fragmented one) is partly read. SELECTOR THREAD ONLY. */
    boolean assembling() {
        return framer.partial() || (fragments != null && fragments.any());
    }

    /** True when nothing is partly read, queued, running or waiting to be written. */
    boolean isQuiet() {
        return !assembling() && inFlight == 0
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
        return out.send(new ByteBuffer[] {ByteBuffer.wrap(bytes)});
    }

    /**
     * Replies were queued because the client does not read them: when they push the budget past
     * its high-water mark, a budget check for this connection is posted to the selector. Any thread.
     */
    void onRepliesQueued() {
        if (loop.budget.shouldPause(inboundHeldBytes()) && PAUSE_CHECK_POSTED.compareAndSet(this, false, true)) {
            loop.post(() -> {
                pauseCheckPosted = false;
                loop.admission.pauseIfOverBudget(this);
            });
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
        if (!CLOSED.compareAndSet(this, false, true)) {
            return;
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        out.discard();
        running.releaseAll();
        loop.onClosed(this);
        IrmiServerGIOPConnection g = giop;
        if (g != null) {
            g.transportClosed();
        }
    }
}
