package org.irmi.orb.isolation;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.LongSupplier;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.irmi.isolation.IsolationRuntime;
import org.irmi.isolation.ParameterReducer;
import org.irmi.isolation.SlowClientPoint;
import org.irmi.monitors.Clock;
import org.irmi.monitors.EdgeSample;
import org.irmi.monitors.LoadReporter;
import org.irmi.monitors.LocalResourceMonitor;
import org.irmi.monitors.LocalResourceSnapshot;
import org.irmi.monitors.RequestCostMonitor;
import org.irmi.orb.IrmiHooks;
import org.irmi.orb.IrmiORB;
import org.irmi.orb.OrbExtension;
import org.irmi.sla.Sla;
import org.irmi.sla.SlaException;
import org.irmi.sla.SlaListener;
import org.irmi.sla.SlaWatcher;
import org.irmi.sla.WindowConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The isolation points of one I-RMI ORB, built from an SLA file and fed from the ORB's hooks. This
 * class swaps the runtime on SLA reloads ({@link RuntimeBuilder} builds it) and connects the parts, one file each:
 *
 * <ul>
 * <li>{@link ClientEnforcement}, the client hook: every outgoing call asks the slow-client point
 *     and its decision is enforced; the reply's load report and round-trip time go back to it;</li>
 * <li>{@link ServerAdmission}, the reader-thread hook: every request counts as "incoming" for the
 *     slow-client point's causal pairs and asks the poison-message point (proceed or reject); its
 *     header goes to the QoS-crosstalk point;</li>
 * <li>{@link DispatchCosts}, the cost hook: CPU and allocation of every admitted request go to the
 *     poison point, the objectives and the {@link EdgeSampler};</li>
 * <li>{@link LoadReportContexts}: replies carry a load report, and the client reads it;</li>
 * <li>{@link IsolationTicker}, a ticker thread ({@code irmi-isolation}) that samples local
 *     resources, ticks the runtime, runs the {@link CrosstalkDriver} (which sets per-connection read
 *     budgets) and refreshes the report flags;</li>
 * <li>{@link DegradeReducers}, the application's reducers for degrade actions, and
 *     {@link OrbMeters}, this ORB's meters.</li>
 * </ul>
 * The SLA file is watched: a valid change rebuilds the runtime and swaps it in; an invalid change
 * is logged and the SLA in force stays.
 *
 * <p>An ORB started with {@value #SLA_PROPERTY} starts its own ({@link IsolationExtension}) and stops
 * it on shutdown; {@link #of(IrmiORB)} finds it.
 */
public final class OrbIsolation implements OrbExtension.Running {

    /** ORB or system property naming the SLA YAML file. */
    public static final String SLA_PROPERTY = "irmi.sla";
    /** ORB or system property: the loopback port of a Prometheus scrape endpoint (0 = any free port). */
    public static final String METRICS_PORT_PROPERTY = "irmi.metrics.port";

    private static final Logger LOG = LoggerFactory.getLogger(OrbIsolation.class);

    private final IrmiORB orb;
    private final Clock clock;
    private final SlaWatcher watcher;
    private final LocalResourceMonitor local;
    private final LoadReporter reporter;
    private final EdgeSampler edges;
    private final ObjectiveMonitor objectives;
    private final OrbMeters meters;
    private final RequestCostMonitor costs;
    private final MeterBinder runtimeMeters;
    private final DegradeReducers reducers = new DegradeReducers();
    private final CrosstalkDriver crosstalk;
    private final IsolationTicker ticker;
    /** The runtime in force and what the per-request paths need of it, worked out once per SLA. */
    private volatile RuntimeWiring wiring;
    // what the dashboard reads (published by the ticker and the SLA watcher; any thread reads)
    private final Path slaFile;
    private final long startedAtMillis;
    private final RecentDecisions decisions = new RecentDecisions();
    private final Dashboard dashboard;
    private volatile long slaAppliedAtMillis;
    private volatile String slaRejection;
    private volatile EdgeSample edgeBaseline;
    /** Builds the runtime of each SLA applied, and keeps what must outlive one runtime. */
    private final RuntimeBuilder runtimes;
    private volatile LocalResourceSnapshot localNow;
    private volatile List<ConnectionShare> shares = List.of();

    private OrbIsolation(IrmiORB orb, Path slaFile, Clock clock, boolean tickerThread, OptionalInt metricsPort,
                         OptionalInt dashboardPort, java.net.InetAddress dashboardAddress) {
        this.orb = orb;
        this.clock = clock;
        this.slaFile = slaFile;
        this.startedAtMillis = clock.wallMillis();
        this.watcher = tickerThread ? SlaWatcher.watch(slaFile) : SlaWatcher.open(slaFile);
        this.slaAppliedAtMillis = startedAtMillis;
        LocalResourceMonitor monitor = null;
        OrbMeters orbMeters = null;
        Dashboard page = null;
        try {
            orbMeters = OrbMeters.start(metricsPort);
            this.meters = orbMeters;
            Sla sla = watcher.current();
            WindowConfig w = sla.monitors().localResources();
            monitor = LocalResourceMonitor.of(w, clock).start();
            this.local = monitor;
            this.reporter = new LoadReporter(local, clock, LoadReporter.DEFAULT_REFRESH_NANOS);
            this.edges = new EdgeSampler(clock, org.irmi.monitors.ResourceProbe.jvm());
            // per-operation and per-stream cost (irmi.cost.*): kept only while someone scrapes them,
            // since recording costs the dispatch threads a few hundred ns per request
            this.costs = meters.scraped() ? RequestCostMonitor.of(w, clock) : null;
            this.objectives = new ObjectiveMonitor(clock, meters::bind);
            this.runtimes = new RuntimeBuilder(orb, clock, objectives, costs != null, reducers, edges, decisions, local);
            this.wiring = RuntimeWiring.of(runtimes.build(sla));
            this.runtimeMeters = IsolationRuntime.following(() -> this.wiring.runtime()); // held: counters are weak
            meters.bind(runtimeMeters);
            meters.bind(local.metrics());
            if (costs != null) {
                meters.bind(costs.metrics());
            }
            objectives.bindLatency();
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
            if (orbMeters != null) {
                orbMeters.close();
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
                    wiring = RuntimeWiring.of(runtimes.build(current));
                    slaAppliedAtMillis = clock.wallMillis();
                    slaRejection = null;
                    LOG.info("irmi SLA reloaded: {}", slaFile);
                } catch (RuntimeException e) {
                    LOG.warn("irmi SLA reload could not be applied, keeping the SLA in force: {}", e.toString());
                }
            }

            @Override
            public void onRejected(Sla inForce, SlaException why) {
                slaRejection = why.getMessage();
                LOG.warn("irmi SLA change rejected, keeping the SLA in force: {}", why.getMessage());
            }
        });
        this.crosstalk = new CrosstalkDriver(orb::transport, meters::bind);
        this.ticker = new IsolationTicker(clock, () -> wiring.runtime(), objectives, local, reporter, crosstalk,
                this::publishViews);
        installHooks();
        if (tickerThread) {
            ticker.start();
        }
    }

    /**
     * The isolation points {@code orb} started from its {@value #SLA_PROPERTY}, until it shuts down.
     *
     * @return empty when the ORB was started without {@value #SLA_PROPERTY}, or has shut down
     */
    public static Optional<OrbIsolation> of(IrmiORB orb) {
        return orb.extension(OrbIsolation.class);
    }

    /**
     * Builds the isolation points of {@code orb} from {@code slaFile} and connects them.
     *
     * @throws org.irmi.sla.SlaException with file:line:col messages when the SLA is invalid
     */
    public static OrbIsolation start(IrmiORB orb, Path slaFile) {
        return start(orb, slaFile, OptionalInt.empty());
    }

    /**
     * As {@link #start(IrmiORB, Path)}, and when {@code metricsPort} is present, serves this ORB's
     * meters ({@link #meters()}: isolation, resources, latency, objectives, transport) as a
     * Prometheus scrape endpoint on {@code http://127.0.0.1:<port>/metrics} (0 picks a free port).
     *
     * @throws IllegalStateException naming {@value #METRICS_PORT_PROPERTY} when the port cannot be bound
     */
    public static OrbIsolation start(IrmiORB orb, Path slaFile, OptionalInt metricsPort) {
        return start(orb, slaFile, metricsPort, OptionalInt.empty(), null);
    }

    /**
     * As {@link #start(IrmiORB, Path, OptionalInt)}, and when {@code dashboardPort} is
     * present, serves the live dashboard of the isolation points ({@link Dashboard}) on that port
     * (0 picks a free one), bound to {@code dashboardAddress} (null: the loopback address).
     *
     * @throws IllegalStateException naming the property whose port cannot be bound
     */
    public static OrbIsolation start(IrmiORB orb, Path slaFile, OptionalInt metricsPort,
                                     OptionalInt dashboardPort, java.net.InetAddress dashboardAddress) {
        return new OrbIsolation(orb, slaFile, Clock.system(), true, metricsPort, dashboardPort, dashboardAddress);
    }

    /**
     * As {@link #start(IrmiORB, Path, OptionalInt)}, on {@code clock} and without threads of its own:
     * the caller drives time ({@link org.irmi.monitors.ManualClock}), runs each tick with
     * {@link #tick()} and applies a changed SLA file with {@link #pollSla()}. The ORB's hooks time
     * calls and requests with {@code clock} too.
     */
    static OrbIsolation startDriven(IrmiORB orb, Path slaFile, Clock clock, OptionalInt metricsPort) {
        return new OrbIsolation(orb, slaFile, clock, false, metricsPort, OptionalInt.empty(), null);
    }

    /**
     * Runs one turn of the ticker on the caller's thread: the tick when the clock reached it
     * ({@value IsolationTicker#TICK_MILLIS} ms after the last one). Only for an isolation started by
     * {@link #startDriven}, whose ticker has no thread of its own.
     */
    void tick() {
        ticker.turn();
    }

    /** Reads the SLA file now and applies or refuses a change, on the caller's thread ({@link #startDriven}). */
    org.irmi.sla.ReloadResult pollSla() {
        return watcher.poll();
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
    public List<ObjectiveStatus> objectiveStatuses() {
        return objectives.statuses();
    }

    /** @return whether stream activity wakes the ticker ({@link IsolationTicker#wake}). Any thread. */
    boolean wakesTickerOnStreamActivity() {
        return crosstalk.hasPoint();
    }

    /** @return the connections as the crosstalk point treats them, as of about half a second ago (empty without crosstalk) */
    public List<ConnectionShare> connectionShares() {
        return shares;
    }

    /** @return the poison edge detector's baseline (throughput and resources), once it has one */
    public Optional<EdgeSample> throughputBaseline() {
        return runtimes.hasEdgeDetector() ? Optional.ofNullable(edgeBaseline) : Optional.empty();
    }

    /**
     * @return whether the poison edge detector has learnt its baseline, a whole {@code baselineWindow}
     *         of samples with traffic: before, no throughput drop opens an episode (false without a
     *         poison point). Any thread.
     */
    public boolean edgeBaselineReady() {
        return runtimes.edgeBaselineReady();
    }

    /** @return the last sample the poison edge detector weighed against its baseline */
    public Optional<EdgeSample> lastEdgeSample() {
        return runtimes.lastEdgeSample();
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
     * This ORB's meters. Each is also registered in Micrometer's global registry, which in a JVM
     * with several I-RMI ORBs keeps the first ORB's meter of each name ({@link OrbMeters}).
     */
    public MeterRegistry meters() {
        return meters.registry();
    }

    /** The Prometheus scrape URL when {@value #METRICS_PORT_PROPERTY} was set. */
    public Optional<String> metricsUrl() {
        return meters.url();
    }

    /** The runtime in force (changes when the SLA file changes). */
    public IsolationRuntime runtime() {
        return wiring.runtime();
    }

    /**
     * Registers the application's own queue length for the slow-client point (the SLA's
     * {@code queueGauge} name, or a causal pair's name; see {@link SlowClientPoint#registerQueueGauge}).
     * Kept across SLA reloads, unlike a gauge registered on {@code runtime().slowClient()} directly.
     *
     * @param queueLength read on the ticker thread; must be cheap and must not block
     */
    public void registerQueueGauge(String gaugeName, LongSupplier queueLength) {
        runtimes.registerQueueGauge(gaugeName, queueLength);
        runtime().slowClient().ifPresent(sc -> sc.registerQueueGauge(gaugeName, queueLength));
    }

    private void installHooks() {
        IrmiHooks hooks = orb.hooks();
        hooks.setClock(clock);
        hooks.setServerRequestHook(new ServerAdmission(() -> wiring, crosstalk, orb::object_to_string));
        hooks.setRequestCostListener(new DispatchCosts(objectives, edges, costs, () -> wiring));
        // Streams that open or wake up get their budgets and buffers at once, not at the next tick.
        hooks.setStreamActivityListener(ticker::wake);
        hooks.addReplyContextProvider(LoadReportContexts.onReplies(reporter));
        ClientEnforcement client = new ClientEnforcement(() -> wiring, orb::object_to_string);
        hooks.setClientCallHook(client);
        hooks.addReplyContextListener(LoadReportContexts.fromReplies(clock, client::onReplyLoad));
    }

    /**
     * Publishes what the dashboard reads and only the ticker may compute: the edge detector's
     * baseline, the resources, and the crosstalk point's view of each connection. TICKER THREAD.
     */
    private void publishViews(long now) {
        edgeBaseline = runtimes.edgeBaseline();
        localNow = local.snapshot();
        shares = crosstalk.shares(now);
    }

    /** Stops the ticker, the SLA watcher and the resource monitor; unhooks nothing (the ORB is going away). */
    @Override
    public void close() {
        ticker.stop();
        watcher.close();
        local.close();
        meters.close();
        if (dashboard != null) {
            dashboard.close();
        }
    }

    /**
     * Registers the application's parameter reducer under the name an SLA's {@code degrade} action
     * gives ({@code reducer: thumbnail}). Registering before or after the SLA names it both work, and
     * the registration holds across SLA reloads ({@link DegradeReducers}). Until a reducer is
     * registered under a name the SLA uses, degraded calls go out with their arguments unchanged.
     *
     * <p>Any thread; the reducer itself runs on the calling thread of each degraded call.
     *
     * @param name    the name the SLA's {@code reducer} key uses
     * @param reducer must be cheap, must not block, and must return arguments of the same types
     */
    public void registerReducer(String name, ParameterReducer reducer) {
        reducers.register(name, reducer);
    }

    /** Whether the SLA objective over {@code operationGlob} is violated now. */
    public boolean objectiveViolated(String operationGlob) {
        return objectives.isViolated(operationGlob);
    }
}
