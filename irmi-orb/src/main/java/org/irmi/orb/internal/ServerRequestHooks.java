package org.irmi.orb.internal;

import org.irmi.monitors.RequestCostSampler;
import org.irmi.orb.CallOutcome;
import org.irmi.orb.IrmiHooks;
import org.irmi.orb.RequestCost;
import org.irmi.orb.RequestCostListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server side of the hooks for one request, on the thread that runs its servant, whichever
 * path runs it: JacORB's POA (through {@link ServerHookInterceptor}) or the direct path
 * ({@link DirectDispatch}). {@link #begin} before the servant, {@link #end} after it and before the
 * reply is written:
 * <ul>
 *   <li>the request's CPU time and allocated bytes for the cost listener ({@link RequestCostSampler});</li>
 *   <li>the reply service contexts of the providers, exceptions included ({@link ReplyContexts});</li>
 *   <li>the end of the request for the transport, which stops counting its bytes;</li>
 *   <li>one request in {@link #CORE_SAMPLE_EVERY} of a thread sampled for the transport's in-flight
 *       limit ({@link CoreLimit}).</li>
 * </ul>
 * Costs nothing measurable while no cost listener and no provider is set.
 *
 * <p>THREADING: {@link #begin} and {@link #end} of one request on one thread (the state between
 * them is that thread's); any number of threads at once.
 */
final class ServerRequestHooks {

    private static final Logger LOG = LoggerFactory.getLogger(ServerRequestHooks.class);

    /** What the hooks read of one request. */
    interface Request {
        String operation();

        int requestId();

        /** The I-RMI connection the request came on, or null (a local call, or another transport). */
        IrmiServerGIOPConnection connection();

        /** The target's object key (or object id); read only when a cost listener is set. */
        byte[] objectKey();

        /** Adds a service context to the reply. */
        void addReplyContext(int contextId, byte[] data);
    }

    /** start[0] when the request is not measured at all. */
    private static final long UNMEASURED = -1;
    /** start[0] when only elapsed time is measured. */
    private static final long ELAPSED_ONLY = Long.MAX_VALUE;
    /** start[0] when allocation is measured but the CPU clock was not read ({@link RequestCostSampler}). */
    private static final long CPU_SAMPLED_OUT = Long.MAX_VALUE - 1;

    /** Start counters of the request running on this thread: cpu (or a marker above), allocated, wall. */
    private static final ThreadLocal<long[]> START = ThreadLocal.withInitial(() -> new long[] {-1, 0, 0});
    /**
     * One request of a servant thread in this many is sampled for the transport's in-flight limit
     * ({@link CoreLimit}): two reads of the thread's CPU clock and of its scheduler statistics, a few
     * microseconds in all.
     */
    static final int CORE_SAMPLE_EVERY = 8;
    /**
     * The in-flight limit's sample of the request running on this thread: {requests seen, time on a
     * core at its start, time waiting for a core at its start, wall time at its start (0: not sampled),
     * and two slots the statistics are read into}.
     */
    private static final ThreadLocal<long[]> CORE = ThreadLocal.withInitial(() -> new long[6]);

    private final IrmiHooks hooks;
    private volatile RequestCostSampler sampler;

    ServerRequestHooks(IrmiHooks hooks) {
        this.hooks = hooks;
        this.sampler = RequestCostSampler.jvm(hooks.cpuSampleEvery());
        ThreadSchedStat.preload(); // not on a request's path, where a server out of descriptors cannot load it
    }

    /** Before the servant runs. */
    void begin(Request r) {
        startCoreSample(r);
        long[] start = START.get();
        if (hooks.requestCostListener() == null) {
            start[0] = UNMEASURED;
            return;
        }
        long now = hooks.clock().nanoTime();
        if (hooks.measureCpuAndAllocation()) {
            RequestCostSampler s = sampler();
            start[0] = s.measure(r.operation(), now) ? s.cpuNanos() : CPU_SAMPLED_OUT;
            start[1] = s.allocatedBytes();
        } else {
            start[0] = ELAPSED_ONLY;
        }
        start[2] = now;
    }

    /**
     * After the servant ran (or failed), before the reply is written.
     *
     * @param exception whether the reply carries an exception
     */
    void end(Request r, boolean exception, CallOutcome outcome) {
        IrmiServerGIOPConnection connection = r.connection();
        try {
            endMeasured(r, exception, outcome, connection);
        } finally {
            // after the request's cost was taken: the in-flight limit's sample (a read of
            // /proc/thread-self/schedstat and of the CPU clock) is the transport's work, not the
            // request's, and the poison point judges a probe by its CPU against 10x the baseline
            endCoreSample(connection);
        }
    }

    private RequestCostSampler sampler() {
        RequestCostSampler s = sampler;
        int every = hooks.cpuSampleEvery();
        if (s.every() != every) {
            s = RequestCostSampler.jvm(every);
            sampler = s;
        }
        return s;
    }

    /** Samples one request in {@link #CORE_SAMPLE_EVERY} of this thread's, when it came over the selector transport. */
    private void startCoreSample(Request r) {
        long[] core = CORE.get();
        core[3] = 0;
        if (++core[0] % CORE_SAMPLE_EVERY != 0 || r.connection() == null) {
            return;
        }
        if (ThreadSchedStat.read(core, 4)) {
            // the CPU clock, not schedstat's first field: Linux updates that one for a running thread
            // only at ticks and switches, so a request of 50 us mostly reads as 0 there
            core[1] = sampler.cpuNanos();
            core[2] = core[5];
            // the system clock, not the hooks' clock: this wall time is set against the kernel's
            // wait-for-core time, which only the real monotonic clock agrees with
            core[3] = System.nanoTime();
        }
    }

    /** Reports this thread's sample, if its request was sampled, to the transport's in-flight limit. */
    private void endCoreSample(IrmiServerGIOPConnection connection) {
        long[] core = CORE.get();
        if (core[3] == 0) {
            return;
        }
        long startWall = core[3];
        core[3] = 0;
        long end = System.nanoTime();
        if (connection != null && ThreadSchedStat.read(core, 4)) {
            long cpu = sampler.cpuNanos() - core[1];
            long waitedForCore = core[5] - core[2]; // added when the thread gets a core back: exact at our read
            connection.requestSampled(end - startWall - waitedForCore, cpu);
        }
    }

    private void endMeasured(Request r, boolean exception, CallOutcome outcome,
                             IrmiServerGIOPConnection connection) {
        if (!hooks.replyContextProviders().isEmpty()) {
            ReplyContexts.collect(hooks, r.operation(), exception, connection, r::addReplyContext);
        }
        if (connection != null) {
            connection.requestFinished(r.requestId());
        }
        long[] start = START.get();
        RequestCostListener listener = hooks.requestCostListener();
        if (start[0] == UNMEASURED || listener == null) {
            return;
        }
        RequestCostSampler s = sampler;
        long cpu = start[0] < CPU_SAMPLED_OUT ? s.cpuNanos() - start[0] : -1;
        long allocated = start[0] != ELAPSED_ONLY ? s.allocatedBytes() - start[1] : -1;
        long elapsed = hooks.clock().nanoTime() - start[2];
        start[0] = UNMEASURED;
        String peer = connection == null ? "" : connection.peerAddress();
        long connectionId = connection == null ? -1 : connection.connectionId();
        try {
            listener.onRequestCost(new RequestCost(r.operation(), r.objectKey(), peer, connectionId, r.requestId(), cpu,
                    allocated, elapsed, outcome));
        } catch (RuntimeException e) {
            LOG.warn("request cost listener failed", e);
        }
    }
}
