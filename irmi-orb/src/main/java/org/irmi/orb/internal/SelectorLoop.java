package org.irmi.orb.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;

import org.irmi.orb.ConnectionView;
import org.irmi.orb.IrmiHooks;
import org.irmi.orb.IrmiTransport;
import org.irmi.orb.TransportStats;
import org.jacorb.orb.giop.RequestListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one reader thread of an I-RMI server and its loop: each turn runs the tasks other threads
 * posted, selects, accepts ({@link Acceptor}), writes queued replies on OP_WRITE, reads every
 * readable connection with a per-connection byte budget ({@link InboundConnection#readTurn}, then
 * {@link TlsReads} for TLS records already taken from their sockets), gives free slots to waiting
 * requests ({@link RequestAdmission}), and sweeps the connections now and then
 * ({@link OpenConnections#sweep}). What a read completes goes through {@link RequestAdmission}
 * (or an {@link EarlyReplies early reply}) to {@link RequestDispatch}. It also is the transport's
 * {@link IrmiTransport} and runs its orderly shutdown.
 *
 * <p>It never blocks on the network (all channels are non-blocking; select waits only when there is
 * nothing to do) and never sleeps. It runs servant code only for cheap requests of closed-loop
 * connections, at the end of its turn ({@link InlineRuns}); when one of those blocks it, a new thread
 * takes over the loop ({@link #takeOver}), so "the selector thread" below means whichever thread holds
 * the loop now. Its state is SELECTOR THREAD ONLY except where
 * a field says otherwise; other threads talk to it through {@link #post} and volatile fields.
 */
final class SelectorLoop implements IrmiTransport, Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(SelectorLoop.class);
    private static final int READ_BUFFER_BYTES = 256 * 1024;

    /**
     * What a connection's first request is expected to cost, in nanoseconds of slot time, until one
     * of its requests has ended (see {@link FairScheduler.Flow}): about what a small echo takes on
     * an idle server, so a new connection is neither favoured nor held back for long.
     */
    static final long INITIAL_REQUEST_COST_NANOS = 50_000;

    final TransportConfig config;
    /** The header of the message being framed, when it arrived whole in one read ({@link GiopFramer}). SELECTOR THREAD ONLY. */
    final byte[] headerScratch = new byte[Giop.HEADER_BYTES];
    final Counters counters = new Counters();

    /** The transport-wide inbound memory budget. */
    final InboundBudget budget;
    /** Which requests go to JacORB now, which wait, and which connections are read. */
    final RequestAdmission admission;
    /** Hands admitted requests to JacORB. */
    final RequestDispatch dispatch;
    /** The replies the transport writes itself, before JacORB has seen the request. */
    final EarlyReplies earlyReplies;
    /** One rate limit for every line about hostile or malformed input. Any thread. */
    final BadInputLog badInput = new BadInputLog(LOG);
    /** The hooks of the ORB, as configured. */
    final IrmiHooks hooks;
    private final Selector selector;
    /** The listening sockets. */
    private final Acceptor acceptor;
    /** The reads of TLS connections that readiness does not announce. */
    final TlsReads tlsReads;
    /** The reader thread: the one that holds the loop now (a new one after {@link #takeOver}). */
    private volatile Thread thread;
    /** The reader while it runs requests itself ({@link InlineRuns}); it then acts as any other thread toward the loop. */
    private Thread inlineRunner;
    /** Cheap requests of closed-loop connections, run on the reader. */
    final InlineRuns inline;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    /** The open connections. */
    final OpenConnections connections;
    private final LongSupplier nanoClock;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(READ_BUFFER_BYTES);
    final ReadPacer pacer;
    private volatile boolean running = true;
    private volatile boolean reading = true;
    private volatile int defaultReadBudget;
    private long nowNanos;
    /** Readable connections in the current select's ready set. SELECTOR THREAD ONLY. */
    private int readableKeys;

    /**
     * @param tls     TLS settings, or null for no TLS port
     * @param tlsPort the TLS port (0: a free one); ignored without {@code tls}
     */
    SelectorLoop(TransportConfig config, IrmiHooks hooks, InetAddress host, int port, TlsSettings tls, int tlsPort,
                 Function<InboundConnection, IrmiServerGIOPConnection> giopFactory,
                 Function<String, org.omg.IOP.IOR> iorResolver, LongSupplier nanoClock)
            throws IOException {
        this.config = config;
        this.hooks = hooks;
        this.nanoClock = nanoClock;
        this.defaultReadBudget = config.readBudgetBytes();
        this.budget = new InboundBudget(config.maxInboundBytes());
        this.pacer = new ReadPacer(TimeUnit.MILLISECONDS.toNanos(config.maxReadDeferMillis()),
                config.readPacingRequestCostBytes());
        this.selector = Selector.open();
        this.connections = new OpenConnections(this, hooks);
        this.acceptor = new Acceptor(this, selector, connections, giopFactory, host, port, tls, tlsPort);
        this.tlsReads = new TlsReads(this, tls != null);
        this.admission = new RequestAdmission(this, connections.all());
        this.dispatch = new RequestDispatch(this, config);
        this.inline = new InlineRuns(config.inlineMaxCostMicros(), config.inlineShareAt(),
                Runtime.getRuntime().availableProcessors(), dispatch::dispatch, admission::handToWorkers,
                dispatch::signal, this::takeOver);
        this.earlyReplies = new EarlyReplies(hooks, iorResolver, this);
        this.thread = new Thread(this, READER_THREAD_NAME);
        thread.setDaemon(true);
    }

    ServerSocketChannel serverChannel() {
        return acceptor.serverChannel();
    }

    /**
     * Starts reading; requests go to {@code listener}, or run on {@code direct} where it may take them.
     *
     * @param direct the direct path ({@link DirectDispatch}), or null for none
     */
    void start(RequestListener listener, DirectDispatch direct) {
        dispatch.start(listener, direct);
        thread.start();
        if (direct != null) {
            inline.start();
        }
    }

    @Override
    public int port() {
        return acceptor.port();
    }

    @Override
    public int tlsPort() {
        return acceptor.tlsPort();
    }

    // ------------------------------------------------------------------ the loop

    @Override
    public void run() {
        Thread me = Thread.currentThread();
        inline.takeLeftovers(); // after a takeover: the held reader's turn, not yet run, goes to the workers
        long sweepNanos = TimeUnit.MILLISECONDS.toNanos(config.sweepIntervalMillis());
        nowNanos = nanoClock.getAsLong();
        long nextSweep = nowNanos + sweepNanos;
        while (running) {
            try {
                runTasks();
                long waitMillis = pacer.hasDeferred() || dispatch.needsWatch() ? 1
                        : Math.max(1, TimeUnit.NANOSECONDS.toMillis(nextSweep - nowNanos));
                waitMillis = acceptor.resumeIfDue(nowNanos, waitMillis);
                if (!tlsReads.any()) {
                    selector.select(waitMillis);
                } else {
                    selector.selectNow();
                }
                nowNanos = nanoClock.getAsLong(); // the turn's time: first-byte stamps and activity use it
                onSelected(selector.selectedKeys());
                tlsReads.readBuffered(nowNanos);
                admission.releaseWaiting(); // once per turn: the requests read in it compete by cost, not by read order
                nowNanos = nanoClock.getAsLong();
                pacer.endOfTurn(nowNanos);
                dispatch.signal();
                if (!runInline(me)) {
                    return; // a request held this thread: a new reader has the loop (InlineRuns)
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

    /**
     * Runs the turn's cheap requests here, after the workers were woken for the others.
     *
     * @return false when this thread is no longer the reader
     */
    private boolean runInline(Thread me) {
        inlineRunner = me;
        try {
            return inline.runTurn();
        } finally {
            inlineRunner = null;
        }
    }

    /**
     * A request has held the reader thread too long ({@link InlineRuns}): a new thread takes over the
     * loop; the held one finishes its request as a worker would and ends. Called by the watch only,
     * once the held reader can no longer touch the loop's state.
     */
    private void takeOver() {
        Thread held = thread;
        held.setName(READER_THREAD_NAME + "-held");
        Thread next = new Thread(this, READER_THREAD_NAME);
        next.setDaemon(true);
        thread = next;
        next.start();
    }

    /** True on the reader thread, outside the requests it runs itself. Any thread. */
    private boolean onReader() {
        Thread me = Thread.currentThread();
        return me == thread && me != inlineRunner;
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
                acceptor.accept(key, nowNanos);
                return;
            }
            InboundConnection c = (InboundConnection) key.attachment();
            if (key.isWritable()) {
                c.out.flushPending();
            }
            if (key.isValid() && key.isReadable() && pacer.mayRead(c, nowNanos)) {
                tlsReads.remove(c);
                read(c);
            }
        } catch (CancelledKeyException e) {
            // closed by another thread meanwhile
        }
    }

    /** Reads {@code c} for one turn and holds the budget after it. SELECTOR THREAD ONLY. */
    void read(InboundConnection c) {
        pacer.afterRead(c, c.readTurn(readBuffer, nowNanos, readableKeys == 1, config.soloReadBudgetBytes()));
        admission.afterRead(c);
        if (c.wire.hasBufferedInput() && !c.isClosed()) {
            tlsReads.add(c); // whole TLS records already taken from the socket: no readiness will come
        }
    }

    /** The transport's monotonic clock (nanoseconds). Any thread. */
    long nanoTime() {
        return nanoClock.getAsLong();
    }

    private void sweep() {
        admission.sweep();
        connections.sweep(nowNanos);
    }

    private void closeEverything() {
        connections.closeAllGracefully();
        acceptor.close();
        tlsReads.shutdown();
        try {
            selector.close();
        } catch (IOException ignored) {
            // shutting down
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
        if (!onReader()) {
            selector.wakeup();
        }
    }

    /** A connection closed itself. Any thread. */
    void onClosed(InboundConnection c) {
        connections.remove(c);
        if (onReader()) {
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
            acceptor.stopAccepting();
            connections.stopReading();
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
        return dispatch.depth() == 0 && !connections.anyInFlight();
    }

    /** Stops the loop: sends CloseConnection where possible, closes every channel, ends the threads. */
    void shutdown() {
        if (!running) {
            return;
        }
        running = false;
        inline.stop();
        selector.wakeup();
        Thread reader = thread;
        if (Thread.currentThread() != reader && reader.isAlive()) {
            try {
                reader.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (!reader.isAlive() && reader.getState() == Thread.State.NEW) {
            closeEverything();
        }
        dispatch.shutdown(5000);
    }

    // ------------------------------------------------------------------ IrmiTransport

    @Override
    public boolean setReadBudget(long connectionId, int bytesPerTurn) {
        return connections.setReadBudget(connectionId, bytesPerTurn);
    }

    /** The read budget of connections accepted from now on. Any thread. */
    int defaultReadBudget() {
        return defaultReadBudget;
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
        return connections.setReceiveBufferSize(connectionId, bytes);
    }

    @Override
    public List<ConnectionView> connections() {
        return connections.views();
    }

    @Override
    public TransportStats stats() {
        Counters k = counters;
        return new TransportStats(connections.size(), k.accepted.sum(), k.refused.sum(), k.messagesRead.sum(),
                k.bytesRead.sum(), k.messageErrors.sum(), k.oversize.sum(), k.earlyRejections.sum(),
                k.handoffRejections.sum(), k.cancelled.sum(), k.outboundOverflowCloses.sum(), k.idleCloses.sum(),
                k.stallCloses.sum(), dispatch.depth(), k.budgetPauses.sum(),
                k.budgetCloses.sum(), budget.heldBytes(), budget.limitBytes(), pacer.deferrals(), k.acceptFailures.sum(),
                k.sharePauses.sum(), k.tlsHandshakes.sum(), admission.requests.admitted(), admission.waitingRequests(),
                admission.limit(), dispatch.directRequests(), k.poaQueueRefusals.sum(), k.poaThreadTimeouts.sum(),
                inline.ran(), inline.takeovers(), inline.shared.sum(), k.shedNeverCompleted.sum(), k.shedStalled.sum(),
                k.shedIdle.sum());
    }
}
