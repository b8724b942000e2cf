package org.irmi.orb.isolation;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import org.irmi.adaptation.IsolationSetup;
import org.irmi.adaptation.ModuleServices;
import org.irmi.isolation.IsolationRuntime;
import org.irmi.isolation.LocalLoad;
import org.irmi.isolation.SlaBindings;
import org.irmi.monitors.Clock;
import org.irmi.monitors.EdgeDetector;
import org.irmi.monitors.EdgeSample;
import org.irmi.monitors.LocalResourceMonitor;
import org.irmi.monitors.LocalResourceSnapshot;
import org.irmi.orb.IrmiORB;
import org.irmi.sla.PoisonConfig;
import org.irmi.sla.Sla;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the isolation runtime of each SLA an {@link OrbIsolation} applies (at start and on every
 * valid reload), and keeps what outlives one runtime: the application's queue gauges and the poison
 * edge detector of the runtime in force with its last sample (for the dashboard).
 *
 * <p>THREADING: {@link #build} on the SLA watcher's thread (or the constructor's); the rest from any.
 */
final class RuntimeBuilder {

    private static final Logger LOG = LoggerFactory.getLogger(OrbIsolation.class);

    private final IrmiORB orb;
    private final Clock clock;
    private final ObjectiveMonitor objectives;
    private final boolean costMeters;
    private final DegradeReducers reducers;
    private final EdgeSampler edges;
    private final RecentDecisions decisions;
    private final LocalResourceMonitor local;
    private final Map<String, LongSupplier> queueGauges = new ConcurrentHashMap<>();
    private volatile EdgeDetector edgeDetector;
    private volatile EdgeSample lastEdgeSample;

    /**
     * @param costMeters whether the per-operation cost meters are kept (they need CPU and allocation per request)
     */
    RuntimeBuilder(IrmiORB orb, Clock clock, ObjectiveMonitor objectives, boolean costMeters, DegradeReducers reducers,
                   EdgeSampler edges, RecentDecisions decisions, LocalResourceMonitor local) {
        this.orb = orb;
        this.clock = clock;
        this.objectives = objectives;
        this.costMeters = costMeters;
        this.reducers = reducers;
        this.edges = edges;
        this.decisions = decisions;
        this.local = local;
    }

    /**
     * The runtime of {@code sla}: its points and modules on this ORB's clock, services and hooks,
     * with the application's queue gauges registered. SLA WATCHER THREAD (or the constructor's).
     */
    IsolationRuntime build(Sla sla) {
        objectives.configure(sla.objectives(), sla.monitors().latency());
        // CPU and allocation per request are read only when asked for and someone uses them.
        boolean poisonOn = sla.isolationPoints().poison().filter(PoisonConfig::enabled).isPresent();
        // (the per-operation cost meters use them too, kept while the metrics endpoint is on)
        orb.hooks().setMeasureCpuAndAllocation(sla.monitors().perRequestCost() && (poisonOn || costMeters));
        ModuleServices services = ModuleServices.builder().clock(clock)
                .replicaResolver(NamingReplicaResolver.of(orb)).build();
        services = reducers.bindTo(services, sla);
        IsolationRuntime.Builder b = IsolationSetup.fromSla(sla, services).localLoad(this::localLoad); // on services' clock
        EdgeDetector detector = sla.isolationPoints().poison().filter(PoisonConfig::enabled)
                .map(pc -> EdgeDetector.of(SlaBindings.edges(pc))).orElse(null);
        if (detector != null) {
            b.edges(detector, () -> {
                EdgeSample s = edges.sample();
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
            lastEdgeSample = null;
        }
        return rt;
    }

    /** Keeps {@code queueLength} for the runtimes built from now on (the caller registers it on the one in force). */
    void registerQueueGauge(String gaugeName, LongSupplier queueLength) {
        queueGauges.put(Objects.requireNonNull(gaugeName, "gaugeName"), Objects.requireNonNull(queueLength, "queueLength"));
    }

    /** Whether the runtime in force has a poison edge detector. */
    boolean hasEdgeDetector() {
        return edgeDetector != null;
    }

    /** The edge detector's baseline now, or null (no detector, or none yet). */
    EdgeSample edgeBaseline() {
        EdgeDetector d = edgeDetector;
        return d == null ? null : d.baseline().orElse(null);
    }

    /** Whether the edge detector in force has learnt its baseline (false without one). Any thread. */
    boolean edgeBaselineReady() {
        EdgeDetector d = edgeDetector;
        return d != null && d.baselineReady();
    }

    /** The last sample the edge detector weighed against its baseline. */
    Optional<EdgeSample> lastEdgeSample() {
        return Optional.ofNullable(lastEdgeSample);
    }

    private LocalLoad localLoad() {
        LocalResourceSnapshot s = local.snapshot();
        return new LocalLoad(s.processCpuFraction(), s.heapPressure(), s.gcPerSecond());
    }
}
