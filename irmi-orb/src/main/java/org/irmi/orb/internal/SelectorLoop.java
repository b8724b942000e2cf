package org.irmi.orb.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;

import org.irmi.orb.ConnectionView;
import org.irmi.orb.IrmiHooks;
import org.irmi.orb.IrmiTransport;
import org.irmi.orb.MessageAssemblyListener;
import org.irmi.orb.Rejection;
import org.irmi.orb.ReplyContextProvider;
import org.irmi.orb.RequestHeader;
import org.irmi.orb.ServerRequestHook;
import org.irmi.orb.ServerVerdict;
import org.irmi.orb.TransportStats;
import org.jacorb.orb.giop.RequestListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one reader thread of an I-RMI server: accepts connections and reads all of them with a
 * per-connection byte budget per turn, parses GIOP headers, reassembles fragments, runs the
 * server request hook, and hands complete requests to the dispatch workers.
 *
 * <p>It never blocks (all channels are non-blocking; select waits only when there is nothing to
 * do), never sleeps, and never runs servant code. Its state is SELECTOR THREAD ONLY except where
 * a field says otherwise; other threads talk to it through {@link #post} and volatile fields.
 */
final class SelectorLoop implements IrmiTransport, Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(SelectorLoop.class);
    private static final AtomicLong CONNECTION_IDS = new AtomicLong();
    private static final int ACCEPTS_PER_TURN = 256;
    private static final int READ_BUFFER_BYTES = 256 * 1024;
    /** Vendor minor code for "hand-off queue full" (see {@link org.irmi.isolation.MinorCodes}). */
    static final int MINOR_HANDOFF_FULL = org.irmi.isolation.MinorCodes.HANDOFF_FULL;
    /** Vendor minor code for "request larger than the inbound memory budget". */
    static final int MINOR_REQUEST_OVER_BUDGET = org.irmi.isolation.MinorCodes.REQUEST_OVER_BUDGET;

    /**
     * What a connection's first request is expected to cost, in nanoseconds of slot time, until one
     * of its requests has ended (see {@link FairScheduler.Flow}): about what a small echo takes on
     * an idle server, so a new connection is neither favoured nor held back for long.
     */
    static final long INITIAL_REQUEST_COST_NANOS = 50_000;

    /**
     * A message on its way to a worker.
     *
     * @param counted   true when it takes a slot of the requests in flight ({@link RequestShare}) and
     *                  waits for one in the {@link FairScheduler}; false for replies to this server's
     *                  callbacks, which end work instead of starting it: a servant holding a slot may be
     *                  waiting for one, so a reply never waits for a slot
     * @param costNanos its estimated cost when it was read (its connection's {@link FairScheduler.Flow#costEstimate})
     */
    record Task(InboundConnection connection, byte[] message, int type, int requestId, boolean replyExpected,
                String operation, boolean counted, long costNanos) {
    }

    final TransportConfig config;
    final Counters counters = new Counters();
    /** The listening socket's key: OP_ACCEPT off while accepting backs off. */
    private SelectionKey acceptKey;
    /** When accepting resumes after a failure (0: not backing off). SELECTOR THREAD ONLY. */
    private long acceptResumeNanos;
    /** How long accepting stops after it failed (out of file descriptors, usually). */
    static final long ACCEPT_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** The transport-wide inbound memory budget. */
    final InboundBudget budget;
    /** Each connection's fair share of the requests in flight. */
    final RequestShare requests;
    /** How many requests may be in flight: what keeps the cores busy, at most the configured maximum. */
    private final CoreLimit coreLimit;
    /** Servant threads' samples for {@link #coreLimit}. */
    final CoreSamples coreSamples = new CoreSamples();
    /** {@code requests.finishedTotal()} at the last sweep. SELECTOR THREAD ONLY. */
    private long finishedAtLastSweep;
    /** Requests read and waiting for a slot, in the order they will get one. SELECTOR THREAD ONLY. */
    private final FairScheduler<Task> waiting = new FairScheduler<>();
    /** {@code waiting.size()}, for other threads (written by the selector thread only). */
    private volatile int waitingRequests;
    /** A {@link #releaseWaiting} is posted to the selector and has not run yet. */
    private final java.util.concurrent.atomic.AtomicBoolean releasePosted = new java.util.concurrent.atomic.AtomicBoolean();
    /** Connections not read because the budget is short. SELECTOR THREAD ONLY. */
    private final List<InboundConnection> budgetPaused = new ArrayList<>();
    private final BadInputLog badInput = new BadInputLog(LOG);
    private final IrmiHooks hooks;
    private final Selector selector;
    private final ServerSocketChannel server;
    /** The TLS port's socket and settings (null without {@code jacorb.security.support_ssl}). */
    private final ServerSocketChannel tlsServer;
    private final TlsSettings tls;
    private final SelectionKey tlsAcceptKey;
    /** Runs TLS handshakes' delegated tasks (key exchange, signatures) off the selector thread; bounded. */
    private final java.util.concurrent.ThreadPoolExecutor tlsTasks;
    /** TLS connections holding whole records already read from their socket: read again without waiting. SELECTOR THREAD ONLY. */
    private final java.util.Set<InboundConnection> bufferedReads = new java.util.LinkedHashSet<>();
    private final Thread thread;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final Map<Long, InboundConnection> connections = new ConcurrentHashMap<>();
    private final DispatchQueue<Task> dispatch;
    private final LongSupplier nanoClock;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(READ_BUFFER_BYTES);
    final ReadPacer pacer;
    private final Function<InboundConnection, IrmiServerGIOPConnection> giopFactory;
    private final Function<String, org.omg.IOP.IOR> iorResolver;
    private volatile RequestListener requestListener;
    private volatile boolean running = true;
    private volatile boolean reading = true;
    private volatile int defaultReadBudget;
    private long nowNanos;
    /** Readable connections in the current select's ready set. SELECTOR THREAD ONLY. */
    private int readableKeys;

    SelectorLoop(TransportConfig config, IrmiHooks hooks, InetAddress host, int port,
                 Function<InboundConnection, IrmiServerGIOPConnection> giopFactory,
                 Function<String, org.omg.IOP.IOR> iorResolver, LongSupplier nanoClock)
            throws IOException {
        this(config, hooks, host, port, null, -1, giopFactory, iorResolver, nanoClock);
    }

    /**
     * @param tls     TLS settings, or null for no TLS port
     * @param tlsPort the TLS port (0: a free one); ignored without {@code tls}
     */
    SelectorLoop(TransportConfig config, IrmiHooks hooks, InetAddress host, int port, TlsSettings tls, int tlsPort,
                 Function<InboundConnection, IrmiServerGIOPConnection> giopFactory,
                 Function<String, org.omg.IOP.IOR> iorResolver, LongSupplier nanoClock)
            throws IOException {
        this.config = config;
        this.iorResolver = iorResolver;
        this.hooks = hooks;
        this.giopFactory = giopFactory;
        this.nanoClock = nanoClock;
        this.defaultReadBudget = config.readBudgetBytes();
        this.budget = new InboundBudget(config.maxInboundBytes());
        this.coreLimit = new CoreLimit(Runtime.getRuntime().availableProcessors(), config.maxRequestsInFlight());
        this.requests = new RequestShare(coreLimit);
        this.pacer = new ReadPacer(TimeUnit.MILLISECONDS.toNanos(config.maxReadDeferMillis()),
                config.readPacingRequestCostBytes());
        this.selector = Selector.open();
        this.server = ServerSocketChannel.open();
        server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        server.bind(host == null ? new InetSocketAddress(port) : new InetSocketAddress(host, port),
                config.acceptBacklog());
        server.configureBlocking(false);
        acceptKey = server.register(selector, SelectionKey.OP_ACCEPT);
        this.tls = tls;
        if (tls != null) {
            tlsServer = ServerSocketChannel.open();
            tlsServer.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            tlsServer.bind(host == null ? new InetSocketAddress(tlsPort) : new InetSocketAddress(host, tlsPort),
                    config.acceptBacklog());
            tlsServer.configureBlocking(false);
            tlsAcceptKey = tlsServer.register(selector, SelectionKey.OP_ACCEPT);
            tlsTasks = new java.util.concurrent.ThreadPoolExecutor(1, 2, 30, TimeUnit.SECONDS,
                    new java.util.concurrent.ArrayBlockingQueue<>(256), r -> {
                        Thread t = new Thread(r, "irmi-tls-handshake");
                        t.setDaemon(true);
                        return t;
                    });
        } else {
            tlsServer = null;
            tlsAcceptKey = null;
            tlsTasks = null;
        }
        this.dispatch = config.dispatchThreads() == 0 ? null : new DispatchQueue<>("irmi-dispatch",
                config.dispatchThreads(), config.handoffQueueCapacity(), this::dispatch);
        this.thread = new Thread(this, READER_THREAD_NAME);
        thread.setDaemon(true);
    }

    ServerSocketChannel serverChannel() {
        return server;
    }

    /** Starts reading; requests go to {@code listener}. */
    void start(RequestListener listener) {
        this.requestListener = listener;
        thread.start();
    }

    @Override
    public int port() {
        return server.socket().getLocalPort();
    }

    @Override
    public int tlsPort() {
        return tlsServer == null ? -1 : tlsServer.socket().getLocalPort();
    }

    /** Where TLS handshakes run their delegated tasks. */
    java.util.concurrent.Executor tlsTasks() {
        return tlsTasks;
    }

    /** {@code c}'s handshake tasks run: it is not read meanwhile. SELECTOR THREAD ONLY. */
    void pauseForTls(InboundConnection c) {
        SelectionKey k = c.key;
        if (k != null && k.isValid()) {
            try {
                k.interestOps(k.interestOps() & ~SelectionKey.OP_READ);
            } catch (CancelledKeyException e) {
                // closed meanwhile
            }
        }
    }

    /** {@code c}'s handshake tasks are done: it is read again, at once. SELECTOR THREAD ONLY. */
    void resumeTls(InboundConnection c) {
        if (c.isClosed()) {
            return;
        }
        SelectionKey k = c.key;
        if (reading && !c.readPaused() && !c.readDeferred && k != null && k.isValid()) {
            try {
                k.interestOpsOr(SelectionKey.OP_READ);
            } catch (CancelledKeyException e) {
                return;
            }
        }
        bufferedReads.add(c);
    }

    // ------------------------------------------------------------------ the loop

    @Override
    public void run() {
        long sweepNanos = TimeUnit.MILLISECONDS.toNanos(config.sweepIntervalMillis());
        nowNanos = nanoClock.getAsLong();
        long nextSweep = nowNanos + sweepNanos;
        while (running) {
            try {
                runTasks();
                long waitMillis = pacer.hasDeferred() ? 1 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(nextSweep - nowNanos));
                if (acceptResumeNanos != 0) {
                    if (nowNanos - acceptResumeNanos >= 0) {
                        acceptResumeNanos = 0;
                        acceptKey.interestOps(SelectionKey.OP_ACCEPT);
                        if (tlsAcceptKey != null) {
                            tlsAcceptKey.interestOps(SelectionKey.OP_ACCEPT);
                        }
                    } else {
                        waitMillis = Math.min(waitMillis, Math.max(1, TimeUnit.NANOSECONDS.toMillis(acceptResumeNanos - nowNanos)));
                    }
                }
                if (bufferedReads.isEmpty()) {
                    selector.select(waitMillis);
                } else {
                    selector.selectNow();
                }
                nowNanos = nanoClock.getAsLong(); // the turn's time: first-byte stamps and activity use it
                onSelected(selector.selectedKeys());
                readBuffered();
                releaseWaiting(); // once per turn: the requests read in it compete by cost, not by read order
                nowNanos = nanoClock.getAsLong();
                pacer.endOfTurn(nowNanos);
                if (dispatch != null) {
                    dispatch.signal();
                }
                nowNanos = nanoClock.getAsLong();
                if (nowNanos - nextSweep >= 0) {
                    sweep();
                    nextSweep = nowNanos + sweepNanos;
                }
            } catch (Throwable t) {
                if (!running) {
                    break;
                }
                LOG.error("I-RMI selector loop failure; continuing", t);
                backOff();
            }
        }
        closeEverything();
    }

    private void backOff() {
        // Waiting on the selector (not sleeping) keeps the loop from spinning on a repeating failure.
        try {
            selector.selectNow();
            selector.select(10);
        } catch (IOException | RuntimeException ignored) {
            // nothing more to do here
        }
    }

    private void runTasks() {
        for (int i = 0; i < 1024; i++) {
            Runnable r = tasks.poll();
            if (r == null) {
                return;
            }
            try {
                r.run();
            } catch (RuntimeException e) {
                LOG.warn("I-RMI selector task failed", e);
            }
        }
    }

    /**
     * Handles one select's ready keys. A readable connection is told whether it is the only one,
     * so it can read past its budget when nothing waits behind it (see {@link InboundConnection#readTurn}).
     */
    private void onSelected(java.util.Set<SelectionKey> selected) {
        readableKeys = 0;
        for (SelectionKey k : selected) { // only "one or more than one" matters: stop at two
            try {
                if (k.isValid() && k.isReadable() && ++readableKeys == 2) {
                    break;
                }
            } catch (CancelledKeyException e) {
                // counted as not readable
            }
        }
        for (SelectionKey k : selected) {
            onKey(k);
        }
        selected.clear();
    }

    private void onKey(SelectionKey key) {
        try {
            if (!key.isValid()) {
                return;
            }
            if (key.isAcceptable()) {
                acceptBurst(key == tlsAcceptKey ? tlsServer : server, key == tlsAcceptKey ? tls : null);
                return;
            }
            InboundConnection c = (InboundConnection) key.attachment();
            if (key.isWritable()) {
                c.out.flushPending();
            }
            if (key.isValid() && key.isReadable() && pacer.mayRead(c, nowNanos)) {
                bufferedReads.remove(c);
                read(c);
            }
        } catch (CancelledKeyException e) {
            // closed by another thread meanwhile
        }
    }

    private void read(InboundConnection c) {
        pacer.afterRead(c, c.readTurn(readBuffer, nowNanos, readableKeys == 1, config.soloReadBudgetBytes()));
        afterRead(c);
        if (c.wire.hasBufferedInput() && !c.isClosed()) {
            bufferedReads.add(c); // whole TLS records already taken from the socket: no readiness will come
        }
    }

    /** Reads the TLS connections that hold records already taken from their socket. SELECTOR THREAD ONLY. */
    private void readBuffered() {
        if (bufferedReads.isEmpty()) {
            return;
        }
        List<InboundConnection> now = new ArrayList<>(bufferedReads);
        bufferedReads.clear();
        for (InboundConnection c : now) {
            if (!c.isClosed() && !c.readPaused() && !c.readDeferred && pacer.mayRead(c, nowNanos)) {
                read(c);
            } else if (!c.isClosed() && c.wire.hasBufferedInput()) {
                // paused: its key's OP_READ is off too; resumed by whoever resumes it, then read on readiness or here
                bufferedReads.add(c);
            }
        }
    }

    private void acceptBurst(ServerSocketChannel listening, TlsSettings tlsOfPort) {
        for (int i = 0; i < ACCEPTS_PER_TURN; i++) {
            SocketChannel ch;
            try {
                ch = listening.accept();
            } catch (IOException e) {
                // Out of file descriptors, usually: the pending connection stays pending and the
                // server socket stays ready, so retrying at once would spin the loop (and, logged
                // each time, flood the log). Stop accepting for a while; the connections already
                // open keep being served.
                counters.acceptFailures.add(1);
                badInput.note("accept failed ({}); not accepting for {} ms", e.toString(),
                        TimeUnit.NANOSECONDS.toMillis(ACCEPT_BACKOFF_NANOS));
                acceptKey.interestOps(0);
                if (tlsAcceptKey != null) {
                    tlsAcceptKey.interestOps(0);
                }
                acceptResumeNanos = nowNanos + ACCEPT_BACKOFF_NANOS;
                if (acceptResumeNanos == 0) {
                    acceptResumeNanos = 1;
                }
                return;
            }
            if (ch == null) {
                return;
            }
            if (connections.size() >= config.maxServerConnections() || (tlsOfPort == null && tls != null && tls.required())) {
                // beyond the maximum; or plain text where the target requires TLS
                counters.refused.add(1);
                closeQuietly(ch);
                continue;
            }
            try {
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                if (config.receiveBufferBytes() > 0) {
                    ch.setOption(StandardSocketOptions.SO_RCVBUF, config.receiveBufferBytes());
                }
                InetSocketAddress remote = (InetSocketAddress) ch.getRemoteAddress();
                String peer = remote.getAddress().getHostAddress() + ":" + remote.getPort();
                InboundConnection c = new InboundConnection(CONNECTION_IDS.incrementAndGet(), ch, peer, this,
                        defaultReadBudget, nowNanos, tlsOfPort);
                c.giop = giopFactory.apply(c);
                c.key = ch.register(selector, SelectionKey.OP_READ, c);
                connections.put(c.id, c);
                counters.accepted.add(1);
                onStreamActive();
            } catch (IOException | RuntimeException e) {
                LOG.warn("could not set up accepted connection: {}", e.toString());
                closeQuietly(ch);
            }
        }
    }

    /**
     * Holds the inbound budget after {@code c} was read: over the limit, the connections holding
     * the most are closed; over the high-water mark, {@code c} stops being read if it holds a share.
     * SELECTOR THREAD ONLY.
     */
    private void afterRead(InboundConnection c) {
        while (budget.overLimit()) {
            InboundConnection largest = null;
            for (InboundConnection o : connections.values()) {
                if (!o.isClosed() && (largest == null || o.inboundHeldBytes() > largest.inboundHeldBytes())) {
                    largest = o;
                }
            }
            if (largest == null || largest.inboundHeldBytes() < budget.shareBytes()) {
                // what is left over belongs to closed connections' queued requests (it drains by
                // itself) or to small holders: the small requests of other clients are never closed
                break;
            }
            counters.budgetCloses.add(1);
            badInput.note("inbound budget of {} bytes exceeded: closed connection {} from {} holding {} bytes",
                    budget.limitBytes(), largest.id, largest.peerAddress, largest.inboundHeldBytes());
            largest.close();
        }
        pauseIfOverBudget(c);
    }

    /**
     * Stops reading {@code c} when the budget is above its high-water mark and {@code c} holds a
     * share of it. Called after each read of {@code c}, and when replies that {@code c}'s client
     * does not read push the budget up between reads (see {@link InboundConnection}'s writes): the
     * replies of requests that were already queued land in bursts, and without this check the
     * budget could pass its limit before {@code c} is read again, and {@code c} be closed where a
     * pause was enough. SELECTOR THREAD ONLY.
     */
    void pauseIfOverBudget(InboundConnection c) {
        if (c.isClosed() || c.budgetPaused || !budget.shouldPause(c.inboundHeldBytes())) {
            return;
        }
        SelectionKey k = c.key;
        if (k != null && k.isValid()) {
            try {
                k.interestOps(k.interestOps() & ~SelectionKey.OP_READ);
            } catch (CancelledKeyException e) {
                return; // closed meanwhile
            }
            c.budgetPaused = true;
            budgetPaused.add(c);
            counters.budgetPauses.add(1);
        }
    }

    /** Reads paused connections again, those needing the least first, while what they need fits. SELECTOR THREAD ONLY. */
    private void resumePaused() {
        if (budgetPaused.isEmpty()) {
            return;
        }
        budgetPaused.removeIf(InboundConnection::isClosed);
        budgetPaused.sort(java.util.Comparator.comparingLong(InboundConnection::inboundNeededBytes));
        java.util.Iterator<InboundConnection> it = budgetPaused.iterator();
        while (it.hasNext()) {
            InboundConnection c = it.next();
            if (!budget.mayResume(c.inboundNeededBytes())) {
                return;
            }
            it.remove();
            c.budgetPaused = false;
            SelectionKey k = c.key;
            if (reading && !c.readDeferred && !c.sharePaused && k != null && k.isValid()) {
                try {
                    k.interestOpsOr(SelectionKey.OP_READ);
                } catch (CancelledKeyException e) {
                    // closed meanwhile
                }
            }
        }
    }

    /**
     * Stops reading {@code c}, which holds its share of the requests in flight: its further requests
     * wait in its own socket. SELECTOR THREAD ONLY.
     */
    private void pauseForShare(InboundConnection c) {
        if (c.isClosed() || c.sharePaused) {
            return;
        }
        SelectionKey k = c.key;
        if (k != null && k.isValid()) {
            try {
                k.interestOps(k.interestOps() & ~SelectionKey.OP_READ);
            } catch (CancelledKeyException e) {
                return; // closed meanwhile
            }
            c.sharePaused = true;
            counters.sharePauses.add(1);
        }
    }

    /**
     * Reads {@code c} again once it holds less than its share (admitted and waiting requests
     * together). Its waiting requests get their slots from {@link #releaseWaiting}. SELECTOR THREAD ONLY.
     */
    private void resumeShare(InboundConnection c) {
        if (!c.sharePaused || c.isClosed() || requests.holdsShare(c, c.flow.waiting())) {
            return;
        }
        c.sharePaused = false;
        SelectionKey k = c.key;
        if (reading && !c.budgetPaused && !c.readDeferred && k != null && k.isValid()) {
            try {
                k.interestOpsOr(SelectionKey.OP_READ);
            } catch (CancelledKeyException e) {
                // closed meanwhile
            }
        }
    }

    /**
     * Gives free slots to waiting requests, in the {@link FairScheduler}'s order. Runs while
     * quiescing too: requests already read are answered. SELECTOR THREAD ONLY.
     */
    private void releaseWaiting() {
        while (waiting.size() > 0 && requests.mayAdmit()) {
            Task t = waiting.poll();
            waitingRequests = waiting.size();
            handOn(t);
        }
    }

    /** Takes {@code c}'s waiting requests out of the scheduler (it closed) and returns them. SELECTOR THREAD ONLY. */
    List<Task> dropWaiting(InboundConnection c) {
        List<Task> dropped = waiting.remove(c.flow);
        waitingRequests = waiting.size();
        return dropped;
    }

    /** A request of {@code c} that counted in its share has ended: its slot goes to a waiting request. Any thread. */
    void requestEnded(InboundConnection c) {
        requests.finished(c);
        if (waitingRequests > 0 && releasePosted.compareAndSet(false, true)) {
            post(() -> {
                releasePosted.set(false);
                releaseWaiting();
            });
        }
        if (c.sharePaused && c.shareCheckPosted.compareAndSet(false, true)) {
            post(() -> {
                c.shareCheckPosted.set(false);
                resumeShare(c);
            });
        }
    }

    /** The transport's monotonic clock (nanoseconds). Any thread. */
    long nanoTime() {
        return nanoClock.getAsLong();
    }

    private void sweep() {
        resumePaused();
        if (config.adaptRequestsInFlight()) {
            long finished = requests.finishedTotal();
            if (waitingRequests > 0 && finished == finishedAtLastSweep) {
                coreLimit.onStalled(); // requests wait and none ended: those in flight are blocked
            } else {
                coreSamples.drainInto(coreLimit);
            }
            finishedAtLastSweep = finished;
            releaseWaiting(); // the limit may have grown
        }
        long stallDeadline = nowNanos - TimeUnit.MILLISECONDS.toNanos(config.stallTimeoutMillis());
        long idleNanos = TimeUnit.MILLISECONDS.toNanos(config.idleTimeoutMillis());
        long forgetBefore = nanoClock.getAsLong() - TimeUnit.MILLISECONDS.toNanos(config.stallTimeoutMillis());
        for (InboundConnection c : connections.values()) {
            c.running.forgetStartedBefore(forgetBefore);
            resumeShare(c); // its share grows when other connections' requests end
            if (c.stalledSince(stallDeadline)) {
                counters.stallCloses.add(1);
                c.close();
            } else if (idleNanos > 0 && nowNanos - c.lastActivityNanos > idleNanos && c.isQuiet()) {
                counters.idleCloses.add(1);
                c.closeGracefully();
            }
        }
    }

    private void closeEverything() {
        for (InboundConnection c : new ArrayList<>(connections.values())) {
            c.closeGracefully();
        }
        closeQuietly(server);
        if (tlsServer != null) {
            closeQuietly(tlsServer);
            tlsTasks.shutdownNow();
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // shutting down
        }
    }

    // ------------------------------------------------------------------ requests

    /** A connection opened or became active after a quiet spell: tells the stream activity listener. */
    void onStreamActive() {
        Runnable listener = hooks.streamActivityListener();
        if (listener != null) {
            try {
                listener.run();
            } catch (RuntimeException e) {
                LOG.warn("stream activity listener failed", e);
            }
        }
    }

    /** The listener told each request message's assembly time, or null. */
    MessageAssemblyListener messageAssemblyListener() {
        return hooks.messageAssemblyListener();
    }

    /**
     * A complete Request or LocateRequest arrived, or a Reply or LocateReply to a request this server
     * sent over the client's connection (bi-directional GIOP). SELECTOR THREAD ONLY.
     */
    void onRequest(InboundConnection c, byte[] m) {
        int type = Giop.type(m);
        int minor = Giop.minor(m);
        if (type == Giop.REPLY || type == Giop.LOCATE_REPLY) {
            // to a worker like a request (bounded by the hand-off queue and the connection's share):
            // JacORB's reply handling parses the reply and wakes the waiting thread
            enqueue(c, m, type, -1, false, "");
            return;
        }
        if (type == Giop.LOCATE_REQUEST) {
            int id = minor == 2 ? safeLeadingId(m) : -1;
            enqueue(c, m, type, id, true, "");
            return;
        }
        ServerRequestHook hook = hooks.serverRequestHook();
        RequestParser.Parsed p;
        try {
            // every request header is checked here, before JacORB reads it: a length or count that
            // exceeds the message gets MessageError, not an exception in a worker and silence
            p = RequestParser.parse(m);
        } catch (RequestParser.Malformed e) {
            badInput.note("malformed request header on connection {} from {}: {}", c.id, c.peerAddress,
                    e.getMessage());
            c.messageErrorAndClose(minor);
            return;
        }
        if (hook != null) {
            ByteBuffer args = ByteBuffer.wrap(m, p.bodyOffset(), m.length - p.bodyOffset()).slice()
                    .order(Giop.littleEndian(m) ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN)
                    .asReadOnlyBuffer();
            RequestHeader h = new RequestHeader(c.id, c.peerAddress, minor, p.requestId(), p.responseExpected(),
                    p.operation(), p.objectKey(), m.length, p.serviceContexts(), args);
            ServerVerdict verdict;
            try {
                verdict = hook.decide(h);
            } catch (RuntimeException e) {
                LOG.warn("server request hook failed; request let through", e);
                verdict = ServerVerdict.PROCEED;
            }
            if (verdict != null && verdict.kind() != ServerVerdict.Kind.PROCEED) {
                counters.earlyRejections.add(1);
                if (p.responseExpected()) {
                    c.send(verdict.kind() == ServerVerdict.Kind.REJECT
                            ? rejectionReply(minor, p.requestId(), verdict.rejection(), p.operation())
                            : forwardReply(minor, p.requestId(), verdict.forwardTo(), p.operation()));
                }
                return;
            }
        }
        enqueue(c, m, type, p.requestId(), p.responseExpected(), p.operation());
    }

    /**
     * A request too large for the inbound budget (see {@link RefusedRequest}): answered with
     * {@code NO_MEMORY}, completed NO, when a reply is expected; a header that cannot be read gets
     * MessageError. SELECTOR THREAD ONLY.
     */
    void refuseOverBudget(InboundConnection c, RefusedRequest r) {
        byte[] prefix = r.prefix();
        RequestParser.Parsed p;
        try {
            p = r.header();
        } catch (RequestParser.Malformed e) {
            badInput.note("malformed header of an over-budget request on connection {} from {}: {}", c.id, c.peerAddress,
                    e.getMessage());
            c.messageErrorAndClose(Giop.minor(prefix));
            return;
        }
        badInput.note("request {} ('{}', {} bytes declared) on connection {} from {} refused: more than the inbound"
                + " budget can hold ({} bytes)", p.requestId(), p.operation(), Giop.HEADER_BYTES + Giop.bodySize(prefix),
                c.id, c.peerAddress, budget.largestMessageBytes());
        if (p.responseExpected()) {
            c.send(rejectionReply(Giop.minor(prefix), p.requestId(), new Rejection("NO_MEMORY", MINOR_REQUEST_OVER_BUDGET,
                    Rejection.Completion.NO, "request larger than the inbound memory budget"), p.operation()));
        }
    }

    private static int safeLeadingId(byte[] m) {
        try {
            return RequestParser.leadingRequestId(m);
        } catch (RequestParser.Malformed e) {
            return -1;
        }
    }

    private void enqueue(InboundConnection c, byte[] m, int type, int requestId, boolean response, String op) {
        c.inFlight.incrementAndGet();
        c.queuedBytes.addAndGet(m.length);
        budget.addQueued(m.length);
        boolean counted = type != Giop.REPLY && type != Giop.LOCATE_REPLY;
        Task t = new Task(c, m, type, requestId, type == Giop.REQUEST && response && requestId != -1, op, counted,
                c.flow.costEstimate());
        if (!counted || (c.admittedRequests.get() == 0 && c.flow.waiting() == 0)) {
            // A connection with nothing in flight never waits for a slot: it cannot be the one
            // crowding out the others (fair queueing would serve it next anyway), and closed-loop
            // clients, the common case, stay off the scheduler and its extra wake-ups. The requests
            // in flight may so exceed the limit by one per such connection.
            handOn(t);
            return;
        }
        // Waits for a slot with the other connections' requests; handed on by releaseWaiting, at the
        // end of this turn at the latest. At its share, this connection is no longer read.
        waiting.offer(c.flow, t, t.costNanos());
        waitingRequests = waiting.size();
        if (requests.holdsShare(c, c.flow.waiting())) {
            pauseForShare(c);
        }
    }

    /**
     * Admits {@code t} (when it counts in the requests in flight) and hands it to the dispatch queue
     * (or JacORB). SELECTOR THREAD ONLY.
     */
    private void handOn(Task t) {
        InboundConnection c = t.connection();
        if (t.counted()) {
            requests.admit(c);
        }
        if (dispatch == null) {
            // Inline mode (dispatch_threads = 0): JacORB parses the header and queues the request in
            // the POA; with queue_wait off that does not block, and no servant code runs here.
            dispatch(t);
        } else if (!dispatch.offer(t)) {
            byte[] m = t.message();
            c.inFlight.decrementAndGet();
            c.queuedBytes.addAndGet(-m.length);
            budget.addQueued(-m.length);
            if (t.counted()) {
                requestEnded(c);
            }
            counters.handoffRejections.add(1);
            if (t.replyExpected()) {
                c.send(rejectionReply(Giop.minor(m), t.requestId(),
                        Rejection.transientFailure(MINOR_HANDOFF_FULL, "I-RMI hand-off queue full"), t.operation()));
            }
        }
    }

    private byte[] rejectionReply(int minor, int requestId, Rejection r, String operation) {
        Object[] ctx = replyContexts(operation, true);
        return Giop.systemExceptionReply(minor, requestId, r.repositoryId(), r.minorCode(),
                r.completed().ordinal(), (int[]) ctx[0], (byte[][]) ctx[1]); // YES=0, NO=1, MAYBE=2 as in CORBA
    }

    private byte[] forwardReply(int minor, int requestId, String ior, String operation) {
        Object[] ctx = replyContexts(operation, false);
        org.omg.IOP.IOR target = iorResolver.apply(ior);
        return Giop.locationForwardReply(minor, requestId, target, (int[]) ctx[0], (byte[][]) ctx[1]);
    }

    /** The providers' contexts for one reply: {int[] ids, byte[][] data}. */
    private Object[] replyContexts(String operation, boolean exceptionReply) {
        List<ReplyContextProvider> providers = hooks.replyContextProviders();
        int[] ids = new int[providers.size()];
        byte[][] data = new byte[providers.size()][];
        int[] n = {0};
        ReplyContexts.collect(hooks, operation, exceptionReply, null, (id, d) -> {
            if (n[0] < ids.length) { // a provider added since the arrays were sized waits for the next reply
                ids[n[0]] = id;
                data[n[0]++] = d;
            }
        });
        return new Object[] {java.util.Arrays.copyOf(ids, n[0]), java.util.Arrays.copyOf(data, n[0])};
    }

    /** Runs on a dispatch worker: hands one request to JacORB. */
    private void dispatch(Task t) {
        InboundConnection c = t.connection();
        boolean running = false;
        try {
            if (t.requestId() != -1 && !c.cancelledIds.isEmpty() && c.cancelledIds.remove(t.requestId())) {
                counters.cancelled.add(1);
                return;
            }
            if (c.isClosed()) {
                return;
            }
            if (t.type() == Giop.REQUEST) {
                // JacORB may queue it in the POA and run it later: its bytes stay counted until it
                // finishes. Held before the hand-off: a POA thread may finish it before this one returns.
                running = t.requestId() != -1
                        && c.running.holdUntilFinished(t.requestId(), t.message().length, nanoClock.getAsLong(), t.replyExpected(),
                        t.costNanos());
                try {
                    requestListener.requestReceived(t.message(), c.giop);
                } catch (RuntimeException | Error e) {
                    if (running) {
                        c.requestFinished(t.requestId()); // released here, not again below
                    }
                    throw e;
                }
            } else if (t.type() == Giop.LOCATE_REQUEST) {
                requestListener.locateRequestReceived(t.message(), c.giop);
            } else if (!c.giop.replyReceived(t.message(), t.type() == Giop.LOCATE_REPLY)) {
                // a reply nobody waits for on a connection that carries no callbacks: as before
                // bi-directional GIOP, a protocol error
                badInput.note("reply on connection {} from {}, which carries no callbacks", c.id, c.peerAddress);
                c.messageErrorAndClose(Giop.minor(t.message()));
            }
        } catch (RuntimeException e) {
            // JacORB answers every failure after it has parsed the request header itself, so an
            // exception escaping here means the header could not be read: malformed input. No
            // stack trace per message: a client could fill the log with them.
            badInput.note("malformed request on connection {} from {}: {}", c.id, c.peerAddress, e.toString());
            c.messageErrorAndClose(Giop.minor(t.message()));
        } catch (Throwable e) {
            LOG.warn("dispatching a request failed", e);
        } finally {
            c.inFlight.decrementAndGet();
            if (!running) {
                c.queuedBytes.addAndGet(-t.message().length);
                budget.addQueued(-t.message().length);
            }
            if (t.counted() && (!running || !t.replyExpected())) {
                requestEnded(c); // else when its reply is written (or it is otherwise finished)
            }
        }
    }

    // ------------------------------------------------------------------ cross-thread entry points

    /** Runs {@code r} on the selector thread at its next turn. Any thread. */
    void post(Runnable r) {
        tasks.add(r);
        selector.wakeup();
    }

    /** Asks for OP_WRITE on a connection with queued replies. Any thread. */
    void requestWrite(InboundConnection c) {
        SelectionKey k = c.key;
        if (k == null) {
            return;
        }
        try {
            k.interestOpsOr(SelectionKey.OP_WRITE);
        } catch (CancelledKeyException e) {
            return;
        }
        if (Thread.currentThread() != thread) {
            selector.wakeup();
        }
    }

    /** A connection closed itself. Any thread. */
    void onClosed(InboundConnection c) {
        connections.remove(c.id);
        if (Thread.currentThread() == thread) {
            c.releaseInbound();
        } else {
            post(c::releaseInbound);
        }
    }

    /** True while connections are read (false once {@link #quiesce} began). */
    boolean reading() {
        return reading;
    }

    /**
     * Stops accepting and reading (replies still go out), then waits up to {@code timeoutMillis}
     * until every request already read has been answered. Used by an orderly ORB shutdown so that
     * no request reaches a POA that is being destroyed. Not on the selector thread.
     *
     * @return true when nothing was left in flight
     */
    boolean quiesce(long timeoutMillis) {
        post(() -> {
            reading = false;
            closeQuietly(server);
            for (InboundConnection c : connections.values()) {
                SelectionKey k = c.key;
                if (k != null && k.isValid()) {
                    k.interestOps(k.interestOps() & ~SelectionKey.OP_READ);
                }
            }
        });
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (System.nanoTime() < deadline) {
            if (reading == false && nothingInFlight()) {
                return true;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L); // shutdown thread, not the reader
        }
        return false;
    }

    private boolean nothingInFlight() {
        if (dispatch != null && dispatch.depth() > 0) {
            return false;
        }
        for (InboundConnection c : connections.values()) {
            if (c.inFlight.get() > 0 || (c.giop != null && c.giop.hasPendingMessages())) {
                return false;
            }
        }
        return true;
    }

    /** Stops the loop: sends CloseConnection where possible, closes every channel, ends the threads. */
    void shutdown() {
        if (!running) {
            return;
        }
        running = false;
        selector.wakeup();
        if (Thread.currentThread() != thread && thread.isAlive()) {
            try {
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (!thread.isAlive() && thread.getState() == Thread.State.NEW) {
            closeEverything();
        }
        if (dispatch != null) {
            dispatch.shutdown(5000);
        }
    }

    private static void closeQuietly(java.nio.channels.Channel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }

    // ------------------------------------------------------------------ IrmiTransport

    @Override
    public boolean setReadBudget(long connectionId, int bytesPerTurn) {
        if (bytesPerTurn < 1) {
            throw new IllegalArgumentException("bytesPerTurn must be >= 1 but is " + bytesPerTurn);
        }
        InboundConnection c = connections.get(connectionId);
        if (c == null) {
            return false;
        }
        c.readBudgetBytes = bytesPerTurn;
        return true;
    }

    @Override
    public void setDefaultReadBudget(int bytesPerTurn) {
        if (bytesPerTurn < 1) {
            throw new IllegalArgumentException("bytesPerTurn must be >= 1 but is " + bytesPerTurn);
        }
        defaultReadBudget = bytesPerTurn;
    }

    @Override
    public boolean setReceiveBufferSize(long connectionId, int bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("bytes must be >= 1 but is " + bytes);
        }
        InboundConnection c = connections.get(connectionId);
        if (c == null) {
            return false;
        }
        post(() -> {
            try {
                c.channel.setOption(StandardSocketOptions.SO_RCVBUF, bytes);
            } catch (IOException | RuntimeException e) {
                LOG.debug("SO_RCVBUF not set: {}", e.toString());
            }
        });
        return true;
    }

    @Override
    public List<ConnectionView> connections() {
        List<ConnectionView> out = new ArrayList<>(connections.size());
        for (InboundConnection c : connections.values()) {
            out.add(new ConnectionView(c.id, c.peerAddress, c.readBudgetBytes, c.bytesRead, c.pendingOutboundBytes(),
                    c.budgetFilledTurns));
        }
        return out;
    }

    @Override
    public TransportStats stats() {
        Counters k = counters;
        return new TransportStats(connections.size(), k.accepted.sum(), k.refused.sum(), k.messagesRead.sum(),
                k.bytesRead.sum(), k.messageErrors.sum(), k.oversize.sum(), k.earlyRejections.sum(),
                k.handoffRejections.sum(), k.cancelled.sum(), k.outboundOverflowCloses.sum(), k.idleCloses.sum(),
                k.stallCloses.sum(), dispatch == null ? 0 : dispatch.depth(), k.budgetPauses.sum(),
                k.budgetCloses.sum(), budget.heldBytes(), budget.limitBytes(), pacer.deferrals(), k.acceptFailures.sum(),
                k.sharePauses.sum(), k.tlsHandshakes.sum(), requests.admitted(), waitingRequests, coreLimit.limit());
    }
}
