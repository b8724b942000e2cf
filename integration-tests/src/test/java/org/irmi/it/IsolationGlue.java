package org.irmi.it;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.irmi.isolation.ConnectionTuner;
import org.irmi.isolation.Decision;
import org.irmi.isolation.IncomingRequest;
import org.irmi.isolation.IsolationRuntime;
import org.irmi.isolation.MinorCodes;
import org.irmi.isolation.OutgoingCall;
import org.irmi.isolation.PoisonMessagePoint;
import org.irmi.isolation.QosCrosstalkPoint;
import org.irmi.isolation.RemoteLoad;
import org.irmi.isolation.SlowClientPoint;
import org.irmi.monitors.EdgeSample;
import org.irmi.monitors.LoadReport;
import org.irmi.monitors.LoadReportCodec;
import org.irmi.monitors.LocalResourceMonitor;
import org.irmi.monitors.LocalResourceSnapshot;
import org.irmi.orb.ClientDecision;
import org.irmi.orb.ConnectionView;
import org.irmi.orb.IrmiHooks;
import org.irmi.orb.IrmiORB;
import org.irmi.orb.IrmiTransport;
import org.irmi.orb.Rejection;
import org.irmi.orb.ReplyContextListener;
import org.irmi.orb.ReplyContextProvider;
import org.irmi.orb.RequestHeader;

/**
 * Wires an {@link IsolationRuntime} to an I-RMI ORB through the ORB's public hooks
 * ({@link IrmiHooks}, {@link IrmiTransport}), the way the ORB's own glue does: the reader-thread
 * hook feeds the poison point, the cost hook ends requests, a load report rides on every reply,
 * the client hook asks the slow-client point, and one ticker thread ticks the runtime, samples the
 * edge detector and owns the crosstalk point (it polls the transport's per-connection byte counts).
 *
 * <p>Test code: it exists because the ORB's glue (org.irmi.orb.isolation) had not landed when
 * these tests were written; every isolation decision is still taken by the production points.
 */
final class IsolationGlue implements AutoCloseable {
    private final IsolationRuntime runtime;
    private final IrmiORB orb;
    private final Thread ticker;
    private final long tickNanos;
    private volatile boolean running = true;
    /** The listener of the call this thread is making (the client hook's before/after pair). */
    private final ThreadLocal<org.irmi.isolation.CallListener> inFlight = new ThreadLocal<>();
    private final AtomicLong completions = new AtomicLong();
    private final AtomicLong allocatedBytes = new AtomicLong();
    private final ConcurrentLinkedQueue<IncomingRequest> headersForCrosstalk = new ConcurrentLinkedQueue<>();
    private LocalResourceMonitor local;
    private volatile org.irmi.monitors.LoadReporter reporter;
    private QosCrosstalkPoint crosstalk;
    private long lastSampleNanos = System.nanoTime();
    private long lastCompletions;
    private long lastAllocated;
    final AtomicLong clientRejections = new AtomicLong();
    final AtomicLong clientForwards = new AtomicLong();
    final AtomicLong clientShortCircuits = new AtomicLong();
    final AtomicLong clientDegrades = new AtomicLong();

    IsolationGlue(org.omg.CORBA.ORB orb, IsolationRuntime runtime, long tickMillis) {
        this.runtime = runtime;
        this.orb = Nodes.irmiOf(orb);
        this.tickNanos = TimeUnit.MILLISECONDS.toNanos(tickMillis);
        this.ticker = new Thread(this::tickLoop, "irmi-it-ticker");
        this.ticker.setDaemon(true);
    }

    /** The local resource monitor the edge samples read (started by {@link #serve}). */
    LocalResourceMonitor localMonitor() {
        return local;
    }

    /** Server side: the reader hook, the cost hook, the load report and the crosstalk point. */
    IsolationGlue serve(LocalResourceMonitor monitor) {
        this.local = monitor;
        IrmiHooks hooks = orb.hooks();
        if (runtime.poison().isEmpty() && runtime.crosstalkConfig().isEmpty()) {
            hooks.setServerRequestHook(this::onRequest);
            return this;
        }
        hooks.setServerRequestHook(this::onRequest);
        hooks.setRequestCostListener(c -> {
            completions.incrementAndGet();
            if (c.allocatedBytes() > 0) {
                allocatedBytes.addAndGet(c.allocatedBytes());
            }
            runtime.poison().ifPresent(p -> p.onDispatchEnd(
                    IncomingRequest.requestKey(c.connectionId(), c.requestId()), c.cpuNanos(),
                    c.allocatedBytes()));
        });
        // the report is cached and refreshed every 100 ms (monitors' LoadReporter): a reply pays
        // for a volatile read, not for a snapshot of the resource monitor
        org.irmi.monitors.LoadReporter reporter = monitor == null ? null
                : new org.irmi.monitors.LoadReporter(monitor, org.irmi.monitors.Clock.system(),
                org.irmi.monitors.LoadReporter.DEFAULT_REFRESH_NANOS);
        this.reporter = reporter;
        hooks.addReplyContextProvider(new ReplyContextProvider() {
            @Override
            public int contextId() {
                return LoadReportCodec.SERVICE_CONTEXT_ID;
            }

            @Override
            public byte[] contextData(String operation, boolean exceptionReply) {
                if (reporter != null) {
                    return reporter.encoded();
                }
                long now = System.nanoTime();
                return LoadReportCodec.encode(new LoadReport(0, 0, 0, 0, 0,
                        runtime.advertisesOverload(now), runtime.inPoisonEpisode()));
            }
        });
        return this;
    }

    /** The edge detector's sample: server throughput, CPU and GC now, allocation of completed requests. */
    EdgeSample sample() {
        long now = System.nanoTime();
        long c = completions.get();
        long a = allocatedBytes.get();
        double seconds = Math.max(1e-3, (now - lastSampleNanos) / 1e9);
        LocalResourceSnapshot s = local.snapshot();
        EdgeSample sample = new EdgeSample(now, (c - lastCompletions) / seconds, s.processCpuCores(),
                s.gcTimeFraction(), (a - lastAllocated) / seconds);
        lastSampleNanos = now;
        lastCompletions = c;
        lastAllocated = a;
        return sample;
    }

    private Optional<Rejection> onRequest(RequestHeader h) {
        byte[] args = null;
        PoisonMessagePoint poison = runtime.poison().orElse(null);
        if (poison != null) {
            int want = poison.argumentBytesWanted(h.operation());
            ByteBuffer b = h.arguments();
            if (want > 0 && b != null) {
                ByteBuffer d = b.duplicate();
                args = new byte[Math.min(want, d.remaining())];
                d.get(args);
            }
        }
        // object keys as ISO-8859-1 text, as the SLA's objectKey globs are matched
        IncomingRequest req = new IncomingRequest(h.connectionId(), h.requestId(), h.peerAddress(),
                new String(h.objectKey(), java.nio.charset.StandardCharsets.ISO_8859_1), h.operation(), h.messageBytes(), h.responseExpected(), null, args);
        if (runtime.crosstalkConfig().isPresent()) {
            headersForCrosstalk.add(req);
        }
        // the "in" side of the slow-client point's causal pairs
        runtime.slowClient().ifPresent(sc -> sc.onIncoming(h.operation()));
        if (poison == null) {
            return Optional.empty();
        }
        Decision d = poison.onRequestHeader(req);
        if (d instanceof Decision.Reject r) {
            return Optional.of(new Rejection(r.kind().name(), r.minor(), Rejection.Completion.NO,
                    r.reason()));
        }
        if (!(d instanceof Decision.Proceed)) {
            return Optional.of(Rejection.transientFailure(MinorCodes.NOT_ENFORCEABLE_HERE,
                    d.action() + " is not enforceable by this hook"));
        }
        return Optional.empty();
    }

    /** Client side: the call hook asks the slow-client point; reply contexts carry load reports. */
    IsolationGlue call() {
        SlowClientPoint point = runtime.slowClient().orElseThrow();
        IrmiHooks hooks = orb.hooks();
        hooks.setClientCallHook(new org.irmi.orb.ClientCallHook() {
            @Override
            public ClientDecision beforeCall(org.irmi.orb.ClientCall call) {
                return enforce(point.beforeMarshalling(view(call)), call);
            }

            @Override
            public void afterCall(org.irmi.orb.ClientCall call, long roundTripNanos,
                                  org.irmi.orb.ClientCallHook.Outcome outcome) {
                org.irmi.isolation.CallListener l = inFlight.get();
                inFlight.remove();
                if (l != null && outcome != org.irmi.orb.ClientCallHook.Outcome.SYSTEM_EXCEPTION) {
                    // a round trip of a call that went where it was addressed (not diverted)
                    point.onReply(view(call), roundTripNanos, null);
                }
                if (l != null) {
                    if (outcome == org.irmi.orb.ClientCallHook.Outcome.SYSTEM_EXCEPTION) {
                        l.onDropped();
                    } else {
                        l.onSuccess(roundTripNanos);
                    }
                }
            }
        });
        hooks.addReplyContextListener(new ReplyContextListener() {
            @Override
            public int contextId() {
                return LoadReportCodec.SERVICE_CONTEXT_ID;
            }

            @Override
            public void onReplyContext(org.irmi.orb.ClientCall call, byte[] data) {
                point.onReply(view(call), 0,
                        RemoteLoad.from(LoadReportCodec.decode(data), System.nanoTime()));
            }
        });
        return this;
    }

    /** The slow-client view of an ORB call; a node on loopback is its host:port. */
    static OutgoingCall view(org.irmi.orb.ClientCall c) {
        return new OutgoingCall(c.targetHost() + ":" + c.targetPort(), c.targetPort(),
                c.objectKeyText(), c.operation(), c.oneway(), c.arguments(), -1);
    }

    private ClientDecision enforce(Decision d, org.irmi.orb.ClientCall call) {
        if (d instanceof Decision.Proceed p) {
            inFlight.set(p.listener());
            return ClientDecision.proceed();
        }
        if (d instanceof Decision.ShortCircuit sc) {
            clientShortCircuits.incrementAndGet();
            return ClientDecision.shortCircuit(sc.result());
        }
        if (d instanceof Decision.Degrade dg && call.arguments() != null) {
            clientDegrades.incrementAndGet();
            Object[] reduced = dg.reducer().reduce(call.operation(), call.arguments().clone());
            // the stub marshals this very array: the reduced arguments go out
            System.arraycopy(reduced, 0, call.arguments(), 0, call.arguments().length);
            return ClientDecision.proceed();
        }
        if (d instanceof Decision.Reject r) {
            clientRejections.incrementAndGet();
            return ClientDecision.fail(new Rejection(r.kind().name(), r.minor(),
                    Rejection.Completion.NO, r.reason()));
        }
        if (d instanceof Decision.Forward f) {
            clientForwards.incrementAndGet();
            Object t = f.target();
            String ior = t instanceof org.omg.CORBA.Object o ? orb.object_to_string(o) : t.toString();
            return ClientDecision.forward(ior);
        }
        if (d instanceof Decision.Throttle t) {
            java.util.concurrent.locks.LockSupport.parkNanos(t.waitNanos());
            return ClientDecision.proceed();
        }
        if (d instanceof Decision.Defer df) {
            try {
                Decision next = df.release().toCompletableFuture().get(df.maxWaitNanos(),
                        TimeUnit.NANOSECONDS);
                return enforce(next, call);
            } catch (java.util.concurrent.TimeoutException e) {
                df.onTimeout().run();
                clientRejections.incrementAndGet();
                return ClientDecision.fail(Rejection.transientFailure(MinorCodes.DEFER_TIMEOUT,
                        "deferred call waited too long"));
            } catch (Exception e) {
                df.onTimeout().run();
                return ClientDecision.fail(Rejection.transientFailure(MinorCodes.DEFER_TIMEOUT,
                        "deferred call interrupted"));
            }
        }
        return ClientDecision.fail(Rejection.transientFailure(MinorCodes.NOT_ENFORCEABLE_HERE,
                d.action() + " is not enforceable by the ORB's client hook"));
    }

    IsolationGlue start() {
        ticker.start();
        return this;
    }

    private void tickLoop() {
        Map<Long, Long> lastBytes = new HashMap<>();
        IrmiTransport transport = orb.transport().orElse(null);
        if (runtime.crosstalkConfig().isPresent() && transport != null) {
            crosstalk = runtime.newCrosstalkPoint(new ConnectionTuner() {
                @Override
                public void setReadBudget(long connectionId, int bytesPerTurn) {
                    transport.setReadBudget(connectionId, bytesPerTurn);
                }

                @Override
                public void setReceiveBufferSize(long connectionId, int bytes) {
                    transport.setReceiveBufferSize(connectionId, bytes);
                }
            }).orElseThrow();
        }
        while (running) {
            long now = System.nanoTime();
            if (local != null) {
                local.sample();
            }
            runtime.tick(now);
            org.irmi.monitors.LoadReporter lr = reporter;
            if (lr != null) {
                lr.setOverloaded(runtime.advertisesOverload(now));
                lr.setPoisonEpisode(runtime.inPoisonEpisode());
            }
            if (crosstalk != null) {
                Set<Long> open = new HashSet<>();
                for (ConnectionView c : transport.connections()) {
                    open.add(c.connectionId());
                    Long before = lastBytes.putIfAbsent(c.connectionId(), 0L);
                    if (before == null) {
                        String peer = c.peerAddress();
                        int colon = peer.lastIndexOf(':');
                        crosstalk.onConnectionOpened(c.connectionId(),
                                colon < 0 ? peer : peer.substring(0, colon).replace("/", ""));
                        before = 0L;
                    }
                    long delta = c.bytesRead() - before;
                    if (delta > 0) {
                        crosstalk.onBytesRead(c.connectionId(), (int) Math.min(Integer.MAX_VALUE, delta));
                        lastBytes.put(c.connectionId(), c.bytesRead());
                    }
                }
                for (IncomingRequest r; (r = headersForCrosstalk.poll()) != null; ) {
                    crosstalk.onRequestHeader(r);
                }
                for (Long id : new HashSet<>(lastBytes.keySet())) {
                    if (!open.contains(id)) {
                        lastBytes.remove(id);
                        crosstalk.onConnectionClosed(id);
                    }
                }
                crosstalk.tick(now);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(tickNanos);
        }
    }

    /** The crosstalk point, owned by the ticker thread (read its counters only for assertions). */
    QosCrosstalkPoint crosstalk() {
        return crosstalk;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        ticker.join(2_000);
    }

}
