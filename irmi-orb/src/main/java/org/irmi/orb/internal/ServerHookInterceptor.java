package org.irmi.orb.internal;

import org.irmi.monitors.RequestCostSampler;
import org.irmi.orb.IrmiHooks;
import org.irmi.orb.RequestCost;
import org.irmi.orb.RequestCostListener;
import org.jacorb.orb.giop.GIOPConnection;
import org.jacorb.orb.portableInterceptor.ServerRequestInfoImpl;
import org.omg.CORBA.LocalObject;
import org.omg.IOP.ServiceContext;
import org.omg.PortableInterceptor.ServerRequestInfo;
import org.omg.PortableInterceptor.ServerRequestInterceptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Server side of the hooks, on the POA thread that runs the servant: measures each request's CPU
 * time and allocated bytes ({@link RequestCostSampler}) between the first and the last
 * interceptor point, and attaches the reply service contexts to every reply, exceptions included.
 * Costs nothing measurable while no cost listener and no provider is set.
 */
final class ServerHookInterceptor extends LocalObject implements ServerRequestInterceptor {

    private static final Logger LOG = LoggerFactory.getLogger(ServerHookInterceptor.class);

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

    ServerHookInterceptor(IrmiHooks hooks) {
        this.hooks = hooks;
        this.sampler = RequestCostSampler.jvm(hooks.cpuSampleEvery());
    }

    @Override
    public String name() {
        return "irmi-server-hooks";
    }

    @Override
    public void destroy() {
        // stateless
    }

    @Override
    public void receive_request_service_contexts(ServerRequestInfo ri) {
        startCoreSample(ri);
        long[] start = START.get();
        if (hooks.requestCostListener() == null) {
            start[0] = UNMEASURED;
            return;
        }
        long now = hooks.clock().nanoTime();
        if (hooks.measureCpuAndAllocation()) {
            RequestCostSampler s = sampler();
            start[0] = s.measure(ri.operation(), now) ? s.cpuNanos() : CPU_SAMPLED_OUT;
            start[1] = s.allocatedBytes();
        } else {
            start[0] = ELAPSED_ONLY;
        }
        start[2] = now;
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

    @Override
    public void receive_request(ServerRequestInfo ri) {
        // measured from receive_request_service_contexts
    }

    @Override
    public void send_reply(ServerRequestInfo ri) {
        finish(ri, false, RequestCost.Outcome.REPLY);
    }

    @Override
    public void send_exception(ServerRequestInfo ri) {
        RequestCost.Outcome outcome = ri.reply_status() == org.omg.PortableInterceptor.USER_EXCEPTION.value
                ? RequestCost.Outcome.USER_EXCEPTION : RequestCost.Outcome.SYSTEM_EXCEPTION;
        finish(ri, true, outcome);
    }

    @Override
    public void send_other(ServerRequestInfo ri) {
        finish(ri, false, ri.response_expected() ? RequestCost.Outcome.LOCATION_FORWARD : RequestCost.Outcome.ONEWAY);
    }

    /** Samples one request in {@link #CORE_SAMPLE_EVERY} of this thread's, when it came over the selector transport. */
    private void startCoreSample(ServerRequestInfo ri) {
        long[] core = CORE.get();
        core[3] = 0;
        if (++core[0] % CORE_SAMPLE_EVERY != 0 || connectionOf(ri) == null) {
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

    private void finish(ServerRequestInfo ri, boolean exception, RequestCost.Outcome outcome) {
        IrmiServerGIOPConnection connection = connectionOf(ri);
        try {
            finishMeasured(ri, exception, outcome, connection);
        } finally {
            // after the request's cost was taken: the in-flight limit's sample (a read of
            // /proc/thread-self/schedstat and of the CPU clock) is the transport's work, not the
            // request's, and the poison point judges a probe by its CPU against 10x the baseline
            endCoreSample(connection);
        }
    }

    private void finishMeasured(ServerRequestInfo ri, boolean exception, RequestCost.Outcome outcome,
                                IrmiServerGIOPConnection connection) {
        attachContexts(ri, exception, connection);
        if (connection != null) {
            connection.requestFinished(ri.request_id());
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
        byte[] key = objectKey(ri);
        try {
            listener.onRequestCost(new RequestCost(ri.operation(), key, peer, connectionId, ri.request_id(), cpu, allocated, elapsed,
                    outcome));
        } catch (RuntimeException e) {
            LOG.warn("request cost listener failed", e);
        }
    }

    /** The I-RMI connection the request came on, or null (a local call, or another transport). */
    private static IrmiServerGIOPConnection connectionOf(ServerRequestInfo ri) {
        if (ri instanceof ServerRequestInfoImpl impl) {
            GIOPConnection c = impl.getConnection();
            if (c instanceof IrmiServerGIOPConnection irmi) {
                return irmi;
            }
        }
        return null;
    }

    private static byte[] objectKey(ServerRequestInfo ri) {
        if (ri instanceof ServerRequestInfoImpl impl && impl.getRequestStream() != null) {
            try {
                return impl.getRequestStream().req_hdr.target.object_key();
            } catch (org.omg.CORBA.BAD_OPERATION notAKey) {
                // addressed by profile or IOR: fall back to the object id
            }
        }
        return ri.object_id();
    }

    private void attachContexts(ServerRequestInfo ri, boolean exception, IrmiServerGIOPConnection connection) {
        if (hooks.replyContextProviders().isEmpty()) {
            return;
        }
        ReplyContexts.collect(hooks, ri.operation(), exception, connection,
                (id, data) -> ri.add_reply_service_context(new ServiceContext(id, data), true));
    }
}
