package org.irmi.orb.isolation;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import org.irmi.adaptation.IsolationSetup;
import org.irmi.adaptation.ModuleServices;
import org.irmi.isolation.CallListener;
import org.irmi.isolation.ConnectionTuner;
import org.irmi.isolation.Decision;
import org.irmi.isolation.IncomingRequest;
import org.irmi.isolation.IsolationRuntime;
import org.irmi.isolation.LocalLoad;
import org.irmi.isolation.MinorCodes;
import org.irmi.isolation.OutgoingCall;
import org.irmi.isolation.ParameterReducer;
import org.irmi.isolation.PoisonMessagePoint;
import org.irmi.isolation.QosCrosstalkPoint;
import org.irmi.isolation.RemoteLoad;
import org.irmi.isolation.SlaBindings;
import org.irmi.isolation.SlowClientPoint;
import org.irmi.monitors.Clock;
import org.irmi.monitors.EdgeDetector;
import org.irmi.monitors.EdgeSample;
import org.irmi.monitors.LoadReportCodec;
import org.irmi.monitors.LoadReporter;
import org.irmi.monitors.LocalResourceMonitor;
import org.irmi.monitors.LocalResourceSnapshot;
import org.irmi.orb.ClientCall;
import org.irmi.orb.ClientCallHook;
import org.irmi.orb.ClientDecision;
import org.irmi.orb.ConnectionView;
import org.irmi.orb.IrmiHooks;
import org.irmi.orb.IrmiORB;
import org.irmi.orb.IrmiTransport;
import org.irmi.orb.Rejection;
import org.irmi.orb.ServerVerdict;
import org.irmi.orb.ReplyContextListener;
import org.irmi.orb.ReplyContextProvider;
import org.irmi.orb.RequestCost;
import org.irmi.orb.RequestHeader;
import org.irmi.sla.Sla;
import org.irmi.sla.SlaListener;
import org.irmi.sla.SlaWatcher;
import org.irmi.sla.WindowConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The isolation points of one I-RMI ORB, built from an SLA file and fed from the ORB's hooks.
 *
 * <ul>
 * <li>client hook: every outgoing call asks the slow-client point before marshalling (RMI) or in
 *     {@code send_request} (IDL); its decision is enforced (reject, forward, short-circuit and
 *     degrade for RMI, throttle and defer by waiting on the caller's thread); the reply's load
 *     report and round-trip time go back to the point;</li>
 * <li>reader-thread hook: every request counts as "incoming" for the slow-client point's causal
 *     pairs and asks the poison-message point (proceed or reject); its header goes to the
 *     QoS-crosstalk point;</li>
 * <li>cost hook: CPU and allocation of every admitted request go to the poison point;</li>
 * <li>replies carry a load report ({@link LoadReportCodec#SERVICE_CONTEXT_ID});</li>
 * <li>a ticker thread ({@code irmi-isolation}) samples local resources, ticks the runtime, drives
 *     the crosstalk point (which sets per-connection read budgets) and refreshes the report flags.</li>
 * </ul>
 * The SLA file is watched: a valid change rebuilds the runtime and swaps it in; an invalid change
 * is logged and the SLA in force stays.
 */
public final class OrbIsolation implements AutoCloseable {

    /** ORB or system property naming the SLA YAML file. */
    public static final String SLA_PROPERTY = "irmi.sla";
    /** ORB or system property: the loopback port of a Prometheus scrape endpoint (0 = any free port). */
    public static final String METRICS_PORT_PROPERTY = "irmi.metrics.port";

    private static final Logger LOG = LoggerFactory.getLogger(OrbIsolation.class);
    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** Least time between two crosstalk recomputations woken by stream activity. */
    private static final long EARLY_CROSSTALK_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final int MAX_PENDING_HEADERS = 65_536;

    private final IrmiORB orb;
    private final Clock clock;
    private final SlaWatcher watcher;
    private final LocalResourceMonitor local;
    private final LoadReporter reporter;
    private final Thread ticker;
    private final ObjectiveMonitor objectives;
    private final org.irmi.monitors.PrometheusEndpoint metricsEndpoint;
    private final org.irmi.monitors.RequestCostMonitor costs;
    private final io.micrometer.core.instrument.binder.MeterBinder runtimeMeters;
    private final io.micrometer.core.instrument.composite.CompositeMeterRegistry meters =
            new io.micrometer.core.instrument.composite.CompositeMeterRegistry();
    private volatile IsolationRuntime runtime;
    // what the dashboard reads (published by the ticker and the SLA watcher; any thread reads)
    private final Path slaFile;
    private final long startedAtMillis;
    private final RecentDecisions decisions = new RecentDecisions();
    private final Dashboard dashboard;
    private volatile long slaAppliedAtMillis;
    private volatile String slaRejection;
    private volatile EdgeDetector edgeDetector;
    private volatile EdgeSample lastEdgeSample;
    private volatile EdgeSample edgeBaseline;
    private volatile LocalResourceSnapshot localNow;
    private volatile java.util.List<ConnectionShare> shares = java.util.List.of();
    /** What the per-request paths need of {@link #runtime}, worked out once per SLA. */
    private volatile Wiring wiring;
    private volatile boolean running = true;

    // fed on dispatch threads, read by the edge sampler
    private final LongAdder completions = new LongAdder();
    private final LongAdder allocatedBytes = new LongAdder();
    // reader thread -> ticker (the crosstalk point is owned by the ticker)
    private final ConcurrentLinkedQueue<IncomingRequest> headers = new ConcurrentLinkedQueue<>();
    private final AtomicInteger headerCount = new AtomicInteger();
    // per calling thread: the call in progress and the load report of its reply
    private final ThreadLocal<Pending> pending = new ThreadLocal<>();
    private final ThreadLocal<RemoteLoad> replyLoad = new ThreadLocal<>();
    // the application's degrade reducers by name (registerReducer); read by the degrade modules
    private final Map<String, ParameterReducer> reducers = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, java.util.function.LongSupplier> queueGauges = new java.util.concurrent.ConcurrentHashMap<>();

    // ticker thread only
    private QosCrosstalkPoint crosstalk;
    private boolean metricsBound;
    private IsolationRuntime crosstalkRuntime;
    private final Map<Long, Long> bytesSeen = new HashMap<>();
    private long lastSampleNanos;
    private long lastCompletions;
    private long lastAllocated;
    private final Map<Long, Long> shareBytesSeen = new HashMap<>();
    private long lastShareNanos;

    /**
     * The runtime's points as the per-request paths use them: null when absent.
     *
     * @param crosstalkHeaders whether the crosstalk point needs request headers (it has rules by
     *                         object key or tag; rules by client address need only the connection)
     * @param tags             whether a crosstalk rule matches the stream tag
     */
    private record Wiring(IsolationRuntime runtime, SlowClientPoint slowClient, PoisonMessagePoint poison,
                          boolean crosstalkHeaders, boolean tags) {
        static Wiring of(IsolationRuntime rt) {
            java.util.List<org.irmi.sla.StreamWeight> weights = rt.crosstalkConfig()
                    .map(org.irmi.sla.CrosstalkConfig::weights).orElse(java.util.List.of());
            boolean headers = weights.stream().anyMatch(w -> w.kind() != org.irmi.sla.StreamWeight.Kind.CLIENT);
            boolean tags = weights.stream().anyMatch(w -> w.kind() == org.irmi.sla.StreamWeight.Kind.TAG);
            return new Wiring(rt, rt.slowClient().orElse(null), rt.poison().orElse(null), headers, tags);
        }
    }

    /** A call in progress; {@code toTarget} is false when it was sent elsewhere (forwarded). */
    private record Pending(OutgoingCall call, CallListener listener, boolean toTarget) {
    }

    private OrbIsolation(IrmiORB orb, Path slaFile, Clock clock, java.util.OptionalInt metricsPort,
                         java.util.OptionalInt dashboardPort, java.net.InetAddress dashboardAddress) {
        this.orb = orb;
        this.clock = clock;
        this.slaFile = slaFile;
        this.startedAtMillis = clock.wallMillis();
        this.watcher = SlaWatcher.watch(slaFile);
        this.slaAppliedAtMillis = startedAtMillis;
        LocalResourceMonitor monitor = null;
        org.irmi.monitors.PrometheusEndpoint endpoint = null;
        Dashboard page = null;
        try {
            if (metricsPort.isPresent()) {
                try {
                    endpoint = org.irmi.monitors.PrometheusEndpoint.start(metricsPort.getAsInt());
                } catch (java.io.IOException e) {
                    throw new IllegalStateException(METRICS_PORT_PROPERTY + ": " + e.getMessage(), e);
                }
                meters.add(endpoint.registry());
                LOG.info("irmi metrics at {}", endpoint.url());
            }
            Sla sla = watcher.current();
            WindowConfig w = sla.monitors().localResources();
            monitor = LocalResourceMonitor.of(w, clock).start();
            this.local = monitor;
            this.reporter = new LoadReporter(local, clock, LoadReporter.DEFAULT_REFRESH_NANOS);
            this.lastSampleNanos = clock.nanoTime();
            // per-operation and per-stream cost (irmi.cost.*): kept only while someone scrapes them,
            // since recording costs the dispatch threads a few hundred ns per request
            this.costs = endpoint == null ? null : org.irmi.monitors.RequestCostMonitor.of(w, clock);
            this.objectives = new ObjectiveMonitor(clock, this::bind);
            this.runtime = build(sla);
            this.wiring = Wiring.of(runtime);
            this.runtimeMeters = IsolationRuntime.following(() -> this.runtime); // held: counters are weak
            bind(runtimeMeters);
            bind(local.metrics());
            if (costs != null) {
                bind(costs.metrics());
            }
            objectives.bindLatency();
            this.metricsEndpoint = endpoint;
            this.localNow = local.snapshot();
            if (dashboardPort.isPresent()) {
                try {
                    page = Dashboard.start(this, dashboardAddress, dashboardPort.getAsInt());
                } catch (java.io.IOException e) {
                    throw new IllegalStateException(e.getMessage(), e);
                }
                LOG.info("irmi dashboard at {}", page.url());
            }
            this.dashboard = page;
        } catch (RuntimeException e) {
            // nothing may keep running when the ORB refuses to start
            watcher.close();
            if (monitor != null) {
                monitor.close();
            }
            if (endpoint != null) {
                endpoint.close();
            }
            if (page != null) {
                page.close();
            }
            throw e;
        }
        watcher.addListener(new SlaListener() {
            @Override
            public void onApplied(Sla previous, Sla current) {
                try {
                    IsolationRuntime rt = build(current);
                    wiring = Wiring.of(rt);
                    runtime = rt;
                    slaAppliedAtMillis = clock.wallMillis();
                    slaRejection = null;
                    LOG.info("irmi SLA reloaded: {}", slaFile);
                } catch (RuntimeException e) {
                    LOG.warn("irmi SLA reload could not be applied, keeping the SLA in force: {}", e.toString());
                }
            }

            @Override
            public void onRejected(Sla inForce, org.irmi.sla.SlaException why) {
                slaRejection = why.getMessage();
                LOG.warn("irmi SLA change rejected, keeping the SLA in force: {}", why.getMessage());
            }
        });
        installHooks();
        this.ticker = new Thread(this::tickLoop, "irmi-isolation");
        ticker.setDaemon(true);
        ticker.start();
    }

    /**
     * Builds the isolation points of {@code orb} from {@code slaFile} and connects them.
     *
     * @throws org.irmi.sla.SlaException with file:line:col messages when the SLA is invalid
     */
    public static OrbIsolation start(IrmiORB orb, Path slaFile) {
        return start(orb, slaFile, java.util.OptionalInt.empty());
    }

    /**
     * As {@link #start(IrmiORB, Path)}, and when {@code metricsPort} is present, serves this ORB's
     * meters ({@link #meters()}: isolation, resources, latency, objectives, transport) as a
     * Prometheus scrape endpoint on {@code http://127.0.0.1:<port>/metrics} (0 picks a free port).
     *
     * @throws IllegalStateException naming {@value #METRICS_PORT_PROPERTY} when the port cannot be bound
     */
    public static OrbIsolation start(IrmiORB orb, Path slaFile, java.util.OptionalInt metricsPort) {
        return start(orb, slaFile, metricsPort, java.util.OptionalInt.empty(), null);
    }

    /**
     * As {@link #start(IrmiORB, Path, java.util.OptionalInt)}, and when {@code dashboardPort} is
     * present, serves the live dashboard of the isolation points ({@link Dashboard}) on that port
     * (0 picks a free one), bound to {@code dashboardAddress} (null: the loopback address).
     *
     * @throws IllegalStateException naming the property whose port cannot be bound
     */
    public static OrbIsolation start(IrmiORB orb, Path slaFile, java.util.OptionalInt metricsPort,
                                     java.util.OptionalInt dashboardPort, java.net.InetAddress dashboardAddress) {
        return new OrbIsolation(orb, slaFile, Clock.system(), metricsPort, dashboardPort, dashboardAddress);
    }

    /** The dashboard's URL when {@value Dashboard#PORT_PROPERTY} was set. */
    public Optional<String> dashboardUrl() {
        return Optional.ofNullable(dashboard).map(Dashboard::url);
    }

    /** @return the SLA file this ORB watches */
    public Path slaFile() {
        return slaFile;
    }

    /** @return the service name of the SLA in force */
    public String slaService() {
        return watcher.current().service();
    }

    /** @return wall-clock milliseconds when the SLA in force was applied (start or last reload) */
    public long slaAppliedAtMillis() {
        return slaAppliedAtMillis;
    }

    /** @return why the last change of the SLA file was refused, until a valid change is applied */
    public Optional<String> slaRejection() {
        return Optional.ofNullable(slaRejection);
    }

    /** @return wall-clock milliseconds when these isolation points started */
    public long startedAtMillis() {
        return startedAtMillis;
    }

    /** @return every SLA objective against what was measured at the last evaluation (once a second) */
    public java.util.List<ObjectiveStatus> objectiveStatuses() {
        return objectives.statuses();
    }

    /** @return the connections as the crosstalk point treats them, as of about half a second ago (empty without crosstalk) */
    public java.util.List<ConnectionShare> connectionShares() {
        return shares;
    }

    /** @return the poison edge detector's baseline (throughput and resources), once it has one */
    public Optional<EdgeSample> throughputBaseline() {
        return Optional.ofNullable(edgeBaseline);
    }

    /** @return the last sample the poison edge detector weighed against its baseline */
    public Optional<EdgeSample> lastEdgeSample() {
        return Optional.ofNullable(lastEdgeSample);
    }

    /** @return this node's resources, as of the last tick */
    public LocalResourceSnapshot localResources() {
        return localNow;
    }

    /** @return the last decisions of every runtime this ORB ran, numbered */
    public RecentDecisions decisions() {
        return decisions;
    }

    /**
     * This ORB's meters. Each is also registered in Micrometer's global registry, for applications
     * that add their own registry there; in a JVM with several I-RMI ORBs the global registry
     * keeps the first ORB's meter of each name, while this registry and the scrape endpoint show
     * this ORB's own.
     */
    public io.micrometer.core.instrument.MeterRegistry meters() {
        return meters;
    }

    /** Binds {@code binder} to this ORB's registry and to Micrometer's global registry. */
    private void bind(io.micrometer.core.instrument.binder.MeterBinder binder) {
        binder.bindTo(meters);
        binder.bindTo(io.micrometer.core.instrument.Metrics.globalRegistry);
    }

    /** The Prometheus scrape URL when {@value #METRICS_PORT_PROPERTY} was set. */
    public Optional<String> metricsUrl() {
        return Optional.ofNullable(metricsEndpoint).map(org.irmi.monitors.PrometheusEndpoint::url);
    }

    /** The runtime in force (changes when the SLA file changes). */
    public IsolationRuntime runtime() {
        return runtime;
    }

    private IsolationRuntime build(Sla sla) {
        objectives.configure(sla.objectives(), sla.monitors().latency());
        // CPU and allocation per request are read only when asked for and someone uses them.
        boolean poisonOn = sla.isolationPoints().poison().filter(org.irmi.sla.PoisonConfig::enabled).isPresent();
        // (the per-operation cost meters use them too, kept while the metrics endpoint is on)
        orb.hooks().setMeasureCpuAndAllocation(sla.monitors().perRequestCost() && (poisonOn || costs != null));
        ModuleServices services = ModuleServices.builder().nanoClock(clock::nanoTime)
                .replicaResolver(NamingReplicaResolver.of(orb)).build();
        services = withRegisteredReducers(services, sla);
        IsolationRuntime.Builder b = IsolationSetup.fromSla(sla, services).clock(clock).localLoad(this::localLoad);
        EdgeDetector detector = sla.isolationPoints().poison().filter(org.irmi.sla.PoisonConfig::enabled)
                .map(pc -> EdgeDetector.of(SlaBindings.edges(pc))).orElse(null);
        if (detector != null) {
            b.edges(detector, () -> {
                EdgeSample s = edgeSample();
                lastEdgeSample = s;
                return s;
            }, SlaBindings.edgeSamplePeriodNanos(sla.isolationPoints().poison().get()));
        }
        b.listener(decisions);
        b.listener(e -> LOG.info("irmi decision point={} stream={} module={} decision={} evidence={}",
                e.point(), e.stream(), e.module(), e.decision(), e.evidence()));
        IsolationRuntime rt = b.build(); // its meters: bound once in the constructor, following the runtime in force
        rt.slowClient().ifPresent(sc -> queueGauges.forEach(sc::registerQueueGauge));
        edgeDetector = detector;
        if (detector == null) {
            edgeBaseline = null;
            lastEdgeSample = null;
        }
        return rt;
    }

    /**
     * Registers the application's own queue length for the slow-client point (the SLA's
     * {@code queueGauge} name, or a causal pair's name; see {@link SlowClientPoint#registerQueueGauge}).
     * Kept across SLA reloads, unlike a gauge registered on {@code runtime().slowClient()} directly.
     *
     * @param queueLength read on the ticker thread; must be cheap and must not block
     */
    public void registerQueueGauge(String gaugeName, java.util.function.LongSupplier queueLength) {
        queueGauges.put(java.util.Objects.requireNonNull(gaugeName, "gaugeName"),
                java.util.Objects.requireNonNull(queueLength, "queueLength"));
        runtime.slowClient().ifPresent(sc -> sc.registerQueueGauge(gaugeName, queueLength));
    }

    private LocalLoad localLoad() {
        LocalResourceSnapshot s = local.snapshot();
        return new LocalLoad(s.processCpuFraction(), s.heapPressure(), s.gcPerSecond());
    }

    private EdgeSample edgeSample() {
        long now = clock.nanoTime();
        long c = completions.sum();
        long a = allocatedBytes.sum();
        double seconds = Math.max(1e-3, (now - lastSampleNanos) / 1e9);
        LocalResourceSnapshot s = local.snapshot();
        EdgeSample sample = new EdgeSample(now, (c - lastCompletions) / seconds, s.processCpuCores(),
                s.gcTimeFraction(), (a - lastAllocated) / seconds);
        lastSampleNanos = now;
        lastCompletions = c;
        lastAllocated = a;
        return sample;
    }

    // ------------------------------------------------------------------ hooks

    private void installHooks() {
        IrmiHooks hooks = orb.hooks();
        hooks.setServerRequestHook(new org.irmi.orb.ServerRequestHook() {
            @Override
            public Optional<Rejection> onRequest(RequestHeader header) {
                ServerVerdict v = onRequestHeader(header);
                return v.kind() == ServerVerdict.Kind.REJECT ? Optional.of(v.rejection()) : Optional.empty();
            }

            @Override
            public ServerVerdict decide(RequestHeader header) {
                return onRequestHeader(header);
            }
        });
        hooks.setRequestCostListener(this::onRequestCost);
        // Streams that open or wake up get their budgets and buffers at once, not at the next tick.
        hooks.setStreamActivityListener(() -> LockSupport.unpark(ticker));
        hooks.addReplyContextProvider(new ReplyContextProvider() {
            @Override
            public int contextId() {
                return LoadReportCodec.SERVICE_CONTEXT_ID;
            }

            @Override
            public byte[] contextData(String operation, boolean exceptionReply) {
                return reporter.encoded();
            }

            @Override
            public long contextVersion() {
                return reporter.version(); // a new report every 100 ms, or at once when a flag changes
            }
        });
        hooks.setClientCallHook(new ClientCallHook() {
            @Override
            public ClientDecision beforeCall(ClientCall call) {
                return decide(call);
            }

            @Override
            public void afterCall(ClientCall call, long roundTripNanos, Outcome outcome) {
                ended(roundTripNanos, outcome);
            }
        });
        hooks.addReplyContextListener(new ReplyContextListener() {
            @Override
            public int contextId() {
                return LoadReportCodec.SERVICE_CONTEXT_ID;
            }

            @Override
            public void onReplyContext(ClientCall call, byte[] data) {
                LoadReportCodec.tryDecode(data).ifPresent(r -> replyLoad.set(RemoteLoad.from(r, clock.nanoTime())));
            }
        });
    }

    /** SELECTOR THREAD: never blocks. */
    private ServerVerdict onRequestHeader(RequestHeader h) {
        Wiring w = wiring;
        if (w.slowClient() != null) {
            w.slowClient().onIncoming(h.operation());
        }
        PoisonMessagePoint poison = w.poison();
        if (poison == null && !w.crosstalkHeaders()) {
            return ServerVerdict.PROCEED;
        }
        byte[] args = null;
        if (poison != null) {
            int want = poison.argumentBytesWanted(h.operation());
            if (want > 0) {
                ByteBuffer b = h.arguments().duplicate();
                args = new byte[Math.min(want, b.remaining())];
                b.get(args);
            }
        }
        String tag = w.tags() ? org.irmi.orb.StreamTag.decode(h.serviceContexts().get(org.irmi.orb.StreamTag.SERVICE_CONTEXT_ID))
                : null;
        IncomingRequest req = new IncomingRequest(h.connectionId(), h.requestId(), h.peerAddress(),
                new String(h.objectKey(), StandardCharsets.ISO_8859_1), h.operation(), h.messageBytes(),
                h.responseExpected(), tag, args);
        if (w.crosstalkHeaders() && headerCount.get() < MAX_PENDING_HEADERS) {
            headerCount.incrementAndGet();
            headers.add(req);
        }
        if (poison == null) {
            return ServerVerdict.PROCEED;
        }
        Decision d = poison.onRequestHeader(req).enforceableOnReaderThread();
        if (d instanceof Decision.Proceed) {
            poison.onDispatchStart(req.requestKey());
            return ServerVerdict.PROCEED;
        }
        if (d instanceof Decision.Reject r) {
            return ServerVerdict.reject(new Rejection(r.kind().name(), r.minor(), Rejection.Completion.NO, r.reason()));
        }
        if (d instanceof Decision.Forward f && f.target() instanceof org.omg.CORBA.Object o) {
            return ServerVerdict.forward(iorOf(o)); // LOCATION_FORWARD reply from the reader thread
        }
        return ServerVerdict.reject(Rejection.transientFailure(MinorCodes.NOT_ENFORCEABLE_HERE,
                d.action() + " is not enforceable on the server reader thread"));
    }

    private final Map<org.omg.CORBA.Object, String> iorStrings = new java.util.concurrent.ConcurrentHashMap<>();

    /** Stringified IOR of a forward target; cached, since the reader thread must not do repeated work. */
    private String iorOf(org.omg.CORBA.Object o) {
        String s = iorStrings.get(o);
        if (s == null) {
            s = orb.object_to_string(o);
            if (iorStrings.size() < 64) {
                iorStrings.put(o, s);
            }
        }
        return s;
    }

    private void onRequestCost(RequestCost c) {
        objectives.record(c.operation(), c.elapsedNanos(), c.outcome() == RequestCost.Outcome.SYSTEM_EXCEPTION);
        completions.increment();
        allocatedBytes.add(Math.max(0, c.allocatedBytes()));
        org.irmi.monitors.RequestCostMonitor cost = costs;
        if (cost != null && c.allocatedBytes() >= 0) {
            String peer = c.peerAddress();
            int colon = peer.lastIndexOf(':');
            cost.record(new String(c.objectKey(), StandardCharsets.ISO_8859_1), c.operation(),
                    colon < 0 ? peer : peer.substring(0, colon), c.cpuNanos(), c.allocatedBytes());
        }
        PoisonMessagePoint poison = wiring.poison();
        if (poison != null) {
            poison.onDispatchEnd(IncomingRequest.requestKey(c.connectionId(), c.requestId()), c.cpuNanos(),
                    c.allocatedBytes());
        }
    }

    private ClientDecision decide(ClientCall call) {
        pending.remove();
        replyLoad.remove();
        SlowClientPoint point = wiring.slowClient();
        if (point == null) {
            return ClientDecision.proceed();
        }
        OutgoingCall oc = new OutgoingCall(call.targetHost(), call.targetPort(),
                new String(call.objectKey(), StandardCharsets.ISO_8859_1), call.operation(), call.oneway(),
                call.arguments(), -1);
        return enforce(point.beforeMarshalling(oc), call, oc);
    }

    private ClientDecision enforce(Decision d, ClientCall call, OutgoingCall oc) {
        if (d instanceof Decision.Proceed p) {
            pending.set(new Pending(oc, p.listener(), true));
            return ClientDecision.proceed();
        }
        if (d instanceof Decision.Reject r) {
            return ClientDecision.fail(new Rejection(r.kind().name(), r.minor(), Rejection.Completion.NO, r.reason()));
        }
        if (d instanceof Decision.Forward f) {
            pending.set(new Pending(oc, CallListener.NONE, false));
            Object t = f.target();
            return ClientDecision.forward(t instanceof org.omg.CORBA.Object o ? orb.object_to_string(o) : t.toString());
        }
        if (d instanceof Decision.ShortCircuit s) {
            return ClientDecision.shortCircuit(s.result());
        }
        if (d instanceof Decision.Throttle t) {
            LockSupport.parkNanos(t.waitNanos()); // the action is to make this caller wait
            pending.set(new Pending(oc, CallListener.NONE, true));
            return ClientDecision.proceed();
        }
        if (d instanceof Decision.Defer df) {
            try {
                Decision next = df.release().toCompletableFuture().get(df.maxWaitNanos(), TimeUnit.NANOSECONDS);
                return enforce(next, call, oc);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                // fall through to the timeout rejection
            }
            df.onTimeout().run();
            return ClientDecision.fail(Rejection.transientFailure(MinorCodes.DEFER_TIMEOUT, "deferred call waited too long"));
        }
        if (d instanceof Decision.Degrade dg) {
            Object[] args = call.arguments();
            if (call.rmi() && args != null) {
                Object[] reduced = dg.reducer().reduce(call.operation(), args.clone());
                if (reduced != null && reduced.length == args.length) {
                    System.arraycopy(reduced, 0, args, 0, args.length); // the stub marshals this array
                }
            }
            pending.set(new Pending(oc, CallListener.NONE, true));
            return ClientDecision.proceed();
        }
        return ClientDecision.proceed();
    }

    private void ended(long roundTripNanos, ClientCallHook.Outcome outcome) {
        Pending p = pending.get();
        RemoteLoad load = replyLoad.get();
        pending.remove();
        replyLoad.remove();
        if (p == null) {
            return;
        }
        if (outcome == ClientCallHook.Outcome.SYSTEM_EXCEPTION) {
            p.listener().onDropped();
        } else {
            p.listener().onSuccess(roundTripNanos);
        }
        if (p.toTarget()) {
            // a forwarded call's round trip and load report belong to the replica, not the target
            runtime.slowClient().ifPresent(sc -> sc.onReply(p.call(), roundTripNanos, load));
        }
    }

    // ------------------------------------------------------------------ ticker

    private void tickLoop() {
        long ticks = 0;
        long nextTick = clock.nanoTime();
        long lastCrosstalk = Long.MIN_VALUE / 2;
        while (running) {
            try {
                long now = clock.nanoTime();
                IsolationRuntime rt = runtime;
                if (now - nextTick >= 0) {
                    nextTick = now + TICK_NANOS;
                    if (++ticks % 20 == 0) {
                        objectives.evaluate(); // once a second
                    }
                    local.sample();
                    rt.tick(now);
                    reporter.setOverloaded(rt.advertisesOverload(now));
                    reporter.setPoisonEpisode(rt.inPoisonEpisode());
                    driveCrosstalk(rt, now);
                    lastCrosstalk = now;
                    if (ticks % 10 == 0) {
                        publishViews(now);
                    }
                } else if (now - lastCrosstalk >= EARLY_CROSSTALK_NANOS) {
                    // Woken by the transport: a stream opened or became active. Budgets and buffers
                    // follow at once (at most every EARLY_CROSSTALK_NANOS), the rest at the next tick.
                    driveCrosstalk(rt, now);
                    lastCrosstalk = now;
                }
            } catch (RuntimeException e) {
                LOG.warn("irmi isolation tick failed", e);
            }
            LockSupport.parkNanos(Math.max(0, nextTick - clock.nanoTime()));
        }
    }

    private void driveCrosstalk(IsolationRuntime rt, long now) {
        IrmiTransport transport = orb.transport().orElse(null);
        if (transport == null) {
            return;
        }
        if (!metricsBound) {
            metricsBound = true;
            bind(new org.irmi.orb.TransportMetrics(transport));
        }
        if (crosstalkRuntime != rt) {
            crosstalkRuntime = rt;
            bytesSeen.clear();
            crosstalk = rt.newCrosstalkPoint(new ConnectionTuner() {
                @Override
                public void setReadBudget(long connectionId, int bytesPerTurn) {
                    transport.setReadBudget(connectionId, bytesPerTurn);
                }

                @Override
                public void setReceiveBufferSize(long connectionId, int bytes) {
                    transport.setReceiveBufferSize(connectionId, bytes);
                }
            }).orElse(null);
        }
        if (crosstalk == null) {
            headers.clear();
            headerCount.set(0);
            return;
        }
        Set<Long> open = new HashSet<>();
        for (ConnectionView c : transport.connections()) {
            open.add(c.connectionId());
            Long before = bytesSeen.get(c.connectionId());
            if (before == null) {
                String peer = c.peerAddress();
                int colon = peer.lastIndexOf(':');
                crosstalk.onConnectionOpened(c.connectionId(), colon < 0 ? peer : peer.substring(0, colon));
                before = 0L;
            }
            long delta = c.bytesRead() - before;
            if (delta > 0) {
                crosstalk.onBytesRead(c.connectionId(), (int) Math.min(Integer.MAX_VALUE, delta));
            }
            bytesSeen.put(c.connectionId(), c.bytesRead());
        }
        for (IncomingRequest r; (r = headers.poll()) != null; ) {
            headerCount.decrementAndGet();
            crosstalk.onRequestHeader(r);
        }
        bytesSeen.keySet().removeIf(id -> {
            if (open.contains(id)) {
                return false;
            }
            crosstalk.onConnectionClosed(id);
            return true;
        });
        crosstalk.tick(now);
    }

    /**
     * Publishes what the dashboard reads and only this thread may compute: the edge detector's
     * baseline, the resources, and the crosstalk point's view of each connection. TICKER THREAD.
     */
    private void publishViews(long now) {
        EdgeDetector d = edgeDetector;
        edgeBaseline = d == null ? null : d.baseline().orElse(null);
        localNow = local.snapshot();
        IrmiTransport transport = orb.transport().orElse(null);
        QosCrosstalkPoint x = crosstalk;
        if (transport == null || x == null) {
            shares = java.util.List.of();
            shareBytesSeen.clear();
            return;
        }
        double seconds = Math.max(1e-3, (now - lastShareNanos) / 1e9);
        lastShareNanos = now;
        java.util.List<ConnectionView> open = transport.connections();
        Map<Long, Long> deltas = new HashMap<>();
        long total = 0;
        double activeWeight = 0;
        Map<Long, Long> seen = new HashMap<>();
        for (ConnectionView c : open) {
            long before = shareBytesSeen.getOrDefault(c.connectionId(), c.bytesRead());
            long delta = Math.max(0, c.bytesRead() - before);
            deltas.put(c.connectionId(), delta);
            seen.put(c.connectionId(), c.bytesRead());
            total += delta;
        }
        shareBytesSeen.clear();
        shareBytesSeen.putAll(seen);
        for (ConnectionView c : open) {
            if (deltas.get(c.connectionId()) > 0) {
                activeWeight += x.weightOf(c.connectionId());
            }
        }
        java.util.List<ConnectionShare> out = new java.util.ArrayList<>(open.size());
        for (ConnectionView c : open) {
            long delta = deltas.get(c.connectionId());
            double w = x.weightOf(c.connectionId());
            boolean active = delta > 0;
            out.add(new ConnectionShare(c.connectionId(), c.peerAddress(), w, active,
                    active && activeWeight > 0 ? 100 * w / activeWeight : 0, c.readBudgetBytes(),
                    x.receiveBufferBytes(c.connectionId()), c.bytesRead(), delta / seconds,
                    total == 0 ? 0 : 100.0 * delta / total));
        }
        out.sort(java.util.Comparator.comparingLong(ConnectionShare::connectionId));
        shares = java.util.List.copyOf(out);
    }

    /** Stops the ticker, the SLA watcher and the resource monitor; unhooks nothing (the ORB is going away). */
    @Override
    public void close() {
        running = false;
        LockSupport.unpark(ticker);
        try {
            ticker.join(TimeUnit.SECONDS.toMillis(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        watcher.close();
        local.close();
        if (metricsEndpoint != null) {
            metricsEndpoint.close();
        }
        if (dashboard != null) {
            dashboard.close();
        }
    }

    /**
     * Registers the application's parameter reducer under the name an SLA's {@code degrade} action
     * gives ({@code reducer: thumbnail}). The ORB builds its isolation points in {@code ORB.init},
     * before the application can hand anything over, so the degrade module is given a reducer that
     * looks the name up here at each degraded call: registering before or after the SLA names it
     * both work, and the registration holds across SLA reloads. Until a reducer is registered under
     * a name the SLA uses, degraded calls go out with their arguments unchanged.
     *
     * <p>Any thread; the reducer itself runs on the calling thread of each degraded call.
     *
     * @param name    the name the SLA's {@code reducer} key uses
     * @param reducer must be cheap, must not block, and must return arguments of the same types
     */
    public void registerReducer(String name, ParameterReducer reducer) {
        reducers.put(java.util.Objects.requireNonNull(name, "name"),
                java.util.Objects.requireNonNull(reducer, "reducer"));
    }

    /** @return {@code services} with a reducer for every degrade action of the SLA (fallbacks too) that reads {@link #reducers}. */
    private ModuleServices withRegisteredReducers(ModuleServices services, Sla sla) {
        Set<String> names = new java.util.TreeSet<>();
        java.util.List<org.irmi.sla.ActionConfig> actions = new java.util.ArrayList<>();
        sla.isolationPoints().slowClient().ifPresent(sc -> actions.add(sc.action()));
        sla.isolationPoints().poison().ifPresent(pc -> actions.add(pc.action()));
        for (org.irmi.sla.ActionConfig a : actions) {
            for (Optional<org.irmi.sla.ActionConfig> x = Optional.of(a); x.isPresent(); x = x.get().fallback()) {
                if (x.get().module() instanceof org.irmi.sla.DegradeConfig dg) {
                    names.add(dg.reducer());
                }
            }
        }
        if (names.isEmpty()) {
            return services;
        }
        Map<String, ParameterReducer> byName = new HashMap<>(services.reducers());
        for (String name : names) {
            if (!reducers.containsKey(name)) {
                LOG.warn("irmi SLA: degrade reducer `{}` is not registered yet; register it with "
                        + "IrmiORB.isolation().get().registerReducer(\"{}\", reducer). Until then degraded "
                        + "calls go out unchanged", name, name);
            }
            byName.putIfAbsent(name, (operation, arguments) -> {
                ParameterReducer r = reducers.get(name);
                return r == null ? arguments : r.reduce(operation, arguments);
            });
        }
        return new ModuleServices(services.nanoClock(), services.replicaResolver(), byName, services.background());
    }

    /** Whether the SLA objective over {@code operationGlob} is violated now. */
    public boolean objectiveViolated(String operationGlob) {
        return objectives.isViolated(operationGlob);
    }

    /** How long one tick period is (for tests and docs). */
    static Duration tickPeriod() {
        return Duration.ofNanos(TICK_NANOS);
    }
}
