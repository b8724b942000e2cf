package org.irmi.orb.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cheap requests run on the reader thread, with a watch that hands the reading on to a new thread
 * when one of them holds the reader.
 *
 * <p>Why: a request handed to a dispatch worker costs a wake-up of that worker and, when the worker
 * has nothing more to do, its going back to sleep: context switches that, at 1,000 closed-loop
 * connections, took more of the server's CPU than the servant and its reply (docs/benchmarks/echo.md,
 * the profile at 1,000 connections: 61% of the server in the kernel). A cheap request that the reader runs
 * itself, between two selects, costs neither; the requests one select finds ready then run one
 * after another on the one thread, as in an event loop (Netty's, gRPC's with a direct executor).
 *
 * <p>Which: a request the direct path may take ({@link RequestDispatch}), from a connection that has
 * never had two requests in flight (a closed-loop client; a connection that pipelines or multiplexes
 * goes to the workers, so its backlog never holds the reader), whose connection's requests have been
 * cheap ({@link FairScheduler.Flow#costEstimate}: their moving average from hand-off to reply, at
 * most {@code irmi.transport.inline_max_cost_us}). The reader collects them while it reads
 * ({@link #add}) and runs them at the end of its turn ({@link #runTurn}), after the workers have been
 * woken for the rest, so no read is half done while a servant runs.
 *
 * <p>How many: the reader is one thread. When one select finds many such requests (at least
 * {@code irmi.transport.inline_share_at}), running them all here would hold every one of them to one
 * core while the others idle (docs/benchmarks/echo.md: at 1,000 connections the reader ran
 * at a full core with 15% of the machine idle). So such a turn is shared: the reader keeps one core's
 * share ({@code n / cores}, rounded up) and hands the rest to the workers at once, before it runs its
 * own; one wake-up then moves many requests, which is what makes the hand-off cheap.
 *
 * <p>What a servant may do: anything it may do on a worker. A servant that blocks (a database call,
 * a lock, an outgoing call whose reply comes in on a connection this reader serves) would stop every
 * connection's reads and, in the last case, never get its reply. So a watch thread looks every half
 * millisecond while requests run here: a request that has run {@link #HOLD_NANOS} and kept the reader
 * blocked at two looks in a row (the thread's state in Linux's {@code /proc}: sleeping or in I/O), or
 * has kept it busy for {@link #HOLD_RUNNING_NANOS}, is left to finish where it is, as if on a worker,
 * and a new reader thread takes over the loop ({@code SelectorLoop.takeOver}); the turn's requests
 * not yet started go to the workers. Requests then stop running on the reader for a back-off, 1 s
 * after the first takeover, doubled after each further one within a minute, at most a minute. So a
 * servant that blocks costs the other connections about 1.5 ms, and no servant can deadlock the
 * reader. The state is looked at because a request that is only slow to get a core (a busy machine)
 * or that the whole JVM paused with (a collection) is not blocked, and will be done before a new
 * thread could help. For the same reason a reader waiting to enter the monitor of a POA's pool of
 * request processors, which the direct path enters for a moment per request
 * ({@link JacorbPoaInternals#takeFreeProcessor}), is not blocked either: the thread inside holds it
 * for a few instructions, and makes the reader wait only when it loses its core there (this was
 * every takeover of the echo benchmark, docs/benchmarks/echo.md); the 50 ms bound still
 * applies to it.
 *
 * <p>THREADING: {@link #mayTake}, {@link #add}, {@link #runTurn} and {@link #takeLeftovers} on the
 * reader thread (the thread that holds the loop); the watch on its own thread; counters from any.
 */
final class InlineRuns {

    private static final Logger LOG = LoggerFactory.getLogger(InlineRuns.class);

    /** How long one request may block the reader before the reading goes on on a new thread. */
    static final long HOLD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * How long one request may hold the reader while the reader is not blocked (it computes, or waits
     * for a core) before the reading goes on on a new thread: longer, because a busy machine can keep
     * a runnable thread off its core for milliseconds, and a cold JVM's first requests compile code.
     */
    static final long HOLD_RUNNING_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** How often the watch looks while requests run on the reader. */
    static final long WATCH_PERIOD_NANOS = TimeUnit.MICROSECONDS.toNanos(500);
    /** Watch periods without a request on the reader before the watch sleeps until the next. */
    private static final int WATCH_IDLE_PERIODS = 200;
    static final long FIRST_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(1);
    static final long MAX_BACKOFF_NANOS = TimeUnit.MINUTES.toNanos(1);
    /** Running no request: {@link #state} is even (twice the sequence number of the last run) or this. */
    private static final long TAKEN_OVER = -1;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(InlineRuns.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long maxCostNanos;
    /** Hands the loop to a new reader thread ({@link SelectorLoop}); called by the watch. */
    private final Runnable takeOver;
    /** From how many requests a turn is shared with the workers; 0: never. */
    private final int shareAt;
    /** The cores the requests of a shared turn may spread over. */
    private final int cores;
    /** Wakes the workers for what was handed to them ({@link RequestDispatch#signal}). */
    private final Runnable wakeWorkers;
    /** Runs one request where the caller is ({@link RequestDispatch}); the same code a worker runs. */
    private final Consumer<RequestAdmission.Task> run;
    /** Gives a request the reader did not run to the workers (or refuses it when their queue is full). */
    private final Consumer<RequestAdmission.Task> handOff;
    /** This turn's requests; read by a new reader after a takeover. READER ONLY otherwise. */
    private final List<RequestAdmission.Task> turn = new ArrayList<>();
    /** The sequence number of {@code turn}'s first request. */
    private long turnBase;
    /** How many of {@code turn}'s requests run here (the rest were handed on); read by a new reader after a takeover. */
    private int turnKeep;
    /** The number of requests this reader has run here; the next gets {@code seq + 1}. */
    private long seq;
    /**
     * {@code 2 * s + 1} while request {@code s} runs here, {@code 2 * s} between runs, {@link #TAKEN_OVER}
     * once the watch has handed the reading on. Written by the reader; the watch only sets
     * {@link #TAKEN_OVER}, by compare-and-set from an odd value.
     */
    private volatile long state;
    /** When the request running here started (the transport's clock). */
    private volatile long runStart;
    /** Until when no request runs here (a back-off after a takeover), on the transport's clock; 0: none. */
    private volatile long backoffUntil;
    private long backoffNanos = FIRST_BACKOFF_NANOS;
    private long lastTakeover;
    private final Thread watch;
    private volatile boolean watchAsleep;
    /** The reader thread as last noted by itself (written by the reader, read by the watch). */
    private volatile Thread readerThread;
    /** Its {@code /proc} stat file, null where there is none. */
    private volatile String readerStatPath;
    /** The held reader's stack at the first look that saw it blocked. WATCH ONLY. */
    private String firstLook;
    /** The reader's state at that look. WATCH ONLY. */
    private char firstLookState = '?';
    /** The reader's major page faults at that look (-1: unknown). WATCH ONLY. */
    private long firstLookFaults = -1;
    /** The reader's major page faults at the last look (-1: unknown). WATCH ONLY. */
    private long readerMajorFaults = -1;
    /** The watch's buffer for that file. WATCH ONLY. */
    private final byte[] statBuffer = new byte[512];
    private volatile boolean stopped;
    final LongAdder ran = new LongAdder();
    final LongAdder takeovers = new LongAdder();
    /** Requests collected to run here that went to the workers because their turn was shared. */
    final LongAdder shared = new LongAdder();

    /**
     * @param maxCostMicros the most a connection's requests may cost on average to run here; 0: none runs here
     * @param shareAt       from how many requests a turn is shared with the workers; 0: never
     * @param cores         the cores the requests of a shared turn may spread over (the reader keeps {@code 1 / cores})
     */
    InlineRuns(int maxCostMicros, int shareAt, int cores, Consumer<RequestAdmission.Task> run,
               Consumer<RequestAdmission.Task> handOff, Runnable wakeWorkers, Runnable takeOver) {
        this.takeOver = takeOver;
        this.shareAt = shareAt;
        this.cores = Math.max(1, cores);
        this.wakeWorkers = wakeWorkers;
        this.maxCostNanos = TimeUnit.MICROSECONDS.toNanos(maxCostMicros);
        this.run = run;
        this.handOff = handOff;
        this.watch = new Thread(this::watch, "irmi-reader-watch");
        watch.setDaemon(true);
    }

    /** Starts the watch (with the loop); none when no request may run here. */
    void start() {
        if (maxCostNanos > 0) {
            watch.start();
        }
    }

    void stop() {
        stopped = true;
        LockSupport.unpark(watch);
    }

    /**
     * Whether a two-way request on its way to the direct path may run on the reader. READER ONLY.
     *
     * @param costNanos its connection's cost estimate ({@link FairScheduler.Flow#costEstimate})
     * @param pipelines whether its connection has ever had two requests in flight
     */
    boolean mayTake(long costNanos, boolean pipelines) {
        if (maxCostNanos == 0 || costNanos > maxCostNanos || pipelines) {
            return false;
        }
        long until = backoffUntil;
        return until == 0 || System.nanoTime() - until >= 0;
    }

    /** {@code t} runs at the end of this turn. READER ONLY. */
    void add(RequestAdmission.Task t) {
        turn.add(t);
    }

    /**
     * Runs this turn's requests, one after another. READER ONLY.
     *
     * @return false when the watch handed the reading on while one of them ran: this thread is no
     *         longer the reader and must leave the loop's state alone
     */
    boolean runTurn() {
        int n = turn.size();
        if (n == 0) {
            return true;
        }
        noteReaderThread();
        int keep = n;
        if (shareAt > 0 && n >= shareAt && cores > 1) {
            keep = (n + cores - 1) / cores;
            for (int i = keep; i < n; i++) {
                handOff.accept(turn.get(i));
            }
            shared.add(n - keep);
            wakeWorkers.run();
        }
        turnKeep = keep;
        turnBase = seq + 1;
        for (int i = 0; i < keep; i++) {
            long s = ++seq;
            runStart = System.nanoTime();
            state = 2 * s + 1; // published after turnBase, turn and runStart: the watch reads them after it
            if (i == 0 && watchAsleep) { // read after state is written: the watch writes this, then reads state
                watchAsleep = false;
                LockSupport.unpark(watch);
            }
            ran.increment(); // before it runs: its client may have its reply before this thread goes on
            try {
                run.accept(turn.get(i));
            } catch (RuntimeException | Error e) {
                // the dispatch answers its own failures; nothing may leave here before the state is
                // settled, or a thread that was taken over could go on as a second reader
                LOG.warn("a request run on the reader thread failed", e);
            }
            if (!STATE.compareAndSet(this, 2 * s + 1, 2 * s)) {
                return false; // taken over: the new reader has the rest of the turn
            }
        }
        turn.clear();
        return true;
    }

    /**
     * The first thing a reader that took over does: the requests of the turn that had not started
     * go to the workers, and the loop's state is the new reader's. READER ONLY (the new one).
     */
    void takeLeftovers() {
        long s = state;
        if (s != TAKEN_OVER) {
            return;
        }
        int started = (int) (heldSeq - turnBase);
        for (int i = started + 1; i < turnKeep; i++) {
            handOff.accept(turn.get(i));
        }
        turn.clear();
        state = 2 * seq;
    }

    /** The sequence number of the request that held the reader at the last takeover. */
    private volatile long heldSeq;

    private void watch() {
        int idle = 0;
        long blockedSeen = 0; // the request seen blocked at the last look, 0: none
        while (!stopped) {
            long s = state;
            if (s > 0 && (s & 1) == 1) {
                idle = 0;
                // runStart is of request s or a later one (it is written before state): never too old
                long held = System.nanoTime() - runStart;
                if (held >= HOLD_NANOS) {
                    char st = readerState();
                    boolean blocked = (st == 'S' || st == 'D' || st == '?') && !entersPoolMonitor(readerThread);
                    // blocked at two looks a period apart: not a reader that was only coming back
                    // from a pause of the whole JVM (a collection) when it was looked at
                    if (blocked && blockedSeen == s || !blocked && held >= HOLD_RUNNING_NANOS) {
                        heldSeq = s >>> 1;
                        if (STATE.compareAndSet(this, s, TAKEN_OVER)) {
                            takeOver(s >>> 1, blocked, held, blocked && firstLook != null ? firstLook : stackOf(readerThread),
                                    blocked ? "" + firstLookState + ", " + st : "" + st);
                        }
                        blockedSeen = 0;
                    } else {
                        if (blocked && blockedSeen != s) {
                            firstLook = stackOf(readerThread); // what the warning shows: where it blocked
                            firstLookFaults = readerMajorFaults;
                            firstLookState = st;
                        }
                        blockedSeen = blocked ? s : 0;
                    }
                }
            } else if (++idle >= WATCH_IDLE_PERIODS) {
                watchAsleep = true; // then state is read: the reader writes state, then reads this
                if ((state & 1) == 0 && !stopped) {
                    LockSupport.park(this);
                }
                watchAsleep = false;
                idle = 0;
                continue;
            }
            LockSupport.parkNanos(this, WATCH_PERIOD_NANOS);
        }
    }

    /**
     * The reader thread's state from Linux's {@code /proc/self/task/<tid>/stat}: {@code 'R'} running or
     * waiting for a core, {@code 'S'} or {@code 'D'} blocked; {@code '?'} where it cannot be read (then
     * a request that holds the reader counts as blocked, and the time alone decides).
     */
    private char readerState() {
        String path = readerStatPath;
        if (path == null) {
            return '?';
        }
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(path, "r")) {
            int n = f.read(statBuffer);
            for (int i = n - 1; i > 0; i--) { // "tid (name) S ...": the name may hold spaces and parentheses
                if (statBuffer[i] == ')' && i + 2 < n) {
                    readerMajorFaults = field(statBuffer, i + 2, n, 9); // majflt, the 12th field
                    return (char) statBuffer[i + 2];
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            readerStatPath = null;
        }
        return '?';
    }

    /** The {@code k}-th space-separated number from {@code from} (0: the state letter itself), or -1. */
    private static long field(byte[] b, int from, int n, int k) {
        int i = from;
        for (int seen = 0; seen < k && i < n; i++) {
            if (b[i] == ' ') {
                seen++;
            }
        }
        long v = 0;
        boolean any = false;
        for (; i < n && b[i] >= '0' && b[i] <= '9'; i++) {
            v = v * 10 + (b[i] - '0');
            any = true;
        }
        return any ? v : -1;
    }

    /** Called by each reader thread once: where the watch reads its state. */
    private void noteReaderThread() {
        Thread me = Thread.currentThread();
        if (readerThread == me) {
            return;
        }
        readerThread = me;
        try {
            // "/proc/thread-self" links to "<pid>/task/<tid>" of the thread that reads it
            java.nio.file.Path self = java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/thread-self"));
            readerStatPath = "/proc/" + self + "/stat";
        } catch (java.io.IOException | RuntimeException e) {
            readerStatPath = null;
        }
    }

    /** On the watch: request {@code held} holds the reader; the reading goes on on a new thread. */
    private void takeOver(long seq, boolean blocked, long heldNanos, String where, String states) {
        long now = System.nanoTime();
        if (lastTakeover != 0 && now - lastTakeover > MAX_BACKOFF_NANOS) {
            backoffNanos = FIRST_BACKOFF_NANOS;
        }
        lastTakeover = now;
        long until = now + backoffNanos;
        backoffUntil = until == 0 ? 1 : until;
        backoffNanos = Math.min(MAX_BACKOFF_NANOS, backoffNanos * 2);
        takeovers.increment();
        // at most one a second (the back-off), so not rate-limited further
        LOG.warn("a request {} the reader thread for {} us: reading goes on on a new thread, and no request runs"
                + " on the reader for the next {} ms (request {} on the reader); its state at the looks: {} (S: waiting"
                + " for a lock, a latch or a reply; D: in I/O or a page fault); its major page faults: {} at the"
                + " first look, {} now; where it was: {}",
                blocked ? "blocked" : "held", TimeUnit.NANOSECONDS.toMicros(heldNanos),
                TimeUnit.NANOSECONDS.toMillis(backoffUntil - now), seq, states, firstLookFaults, readerMajorFaults, where);
        takeOver.run();
    }

    /** The top of a held reader's stack, for the operator: which servant, and what it waits for. */
    /**
     * Whether {@code t} waits to enter the monitor of a POA's pool of request processors, from the direct
     * path ({@link JacorbPoaInternals}): a wait for another thread's moment of work, not a servant that
     * blocks. The thread's Java state is read first (cheap); its stack only when it waits for a monitor.
     */
    static boolean entersPoolMonitor(Thread t) {
        if (t == null || t.getState() != Thread.State.BLOCKED) {
            return false;
        }
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getClassName().equals(JacorbPoaInternals.class.getName())) {
                return true;
            }
            if (!e.getClassName().equals(POOL_CLASS)) {
                return false; // blocked elsewhere: a servant's monitor
            }
        }
        return false;
    }

    /** JacORB's pool of request processors, whose synchronized methods the direct path calls. */
    private static final String POOL_CLASS = "org.jacorb.poa.RPPoolManager";

    private static String stackOf(Thread held) {
        if (held == null) {
            return "unknown";
        }
        StackTraceElement[] stack = held.getStackTrace();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(stack.length, 12); i++) {
            sb.append(i == 0 ? "" : " <- ").append(stack[i]);
        }
        return sb.toString();
    }

    /** Requests the reader thread started itself (one taken over is counted too). Any thread. */
    long ran() {
        return ran.sum();
    }

    /** Times the reading went on on a new thread because a request held the reader. Any thread. */
    long takeovers() {
        return takeovers.sum();
    }
}
