package org.irmi.isolation;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.irmi.isolation.internal.DecisionRecorder;
import org.irmi.isolation.internal.DefaultPoisonMessagePoint;
import org.irmi.isolation.internal.DefaultQosCrosstalkPoint;
import org.irmi.isolation.internal.DefaultSlowClientPoint;
import org.irmi.monitors.Clock;
import org.irmi.monitors.EdgeDetector;
import org.irmi.monitors.EdgeEvent;
import org.irmi.monitors.EdgeSample;
import org.irmi.sla.CrosstalkConfig;
import org.irmi.sla.MonitorsConfig;
import org.irmi.sla.PoisonConfig;
import org.irmi.sla.SlowClientConfig;

/**
 * Builds and holds the isolation points of one ORB: the factory the ORB's glue uses.
 *
 * <pre>{@code
 * IsolationRuntime rt = IsolationRuntime.builder()
 *     .clock(Clock.system())                         // the one time source (tests: a ManualClock)
 *     .slowClient(slowClientConfig, monitorsConfig, module) // optional
 *     .poison(poisonConfig, module)                  // optional
 *     .crosstalk(crosstalkConfig)                    // optional
 *     .localLoad(() -> new LocalLoad(cpu, heap, gc)) // for the slow-client point
 *     .edges(edgeDetector, () -> edgeSample)         // feeds the poison point from the monitors
 *     .build();
 * rt.slowClient().ifPresent(p -> ...);               // client call hook
 * rt.poison().ifPresent(p -> ...);                   // reader-thread hook, cost hook
 * rt.newCrosstalkPoint(tuner)                        // on the selector thread, once
 * every 100 ms: rt.tick(nanoTime)                    // windows, policies, edges, episodes
 * }</pre>
 * With an SLA, {@code org.irmi.adaptation.IsolationSetup.fromSla(...)} fills the builder.
 *
 * <p>THREAD SAFETY: the points are safe as their Javadoc says; {@link #tick} is called by one
 * thread at a time.
 */
public final class IsolationRuntime implements MeterBinder {
    private final LongSupplier nanoClock;
    private final DecisionRecorder recorder;
    private final DefaultSlowClientPoint slowClient;
    private final DefaultPoisonMessagePoint poison;
    private final CrosstalkConfig crosstalkConfig;
    private final EdgeDetector edgeDetector;
    private final Supplier<EdgeSample> edgeSamples;
    private final long edgeSamplePeriodNanos;
    private long lastEdgeSampleNanos;
    private boolean edgeSampled;
    private volatile DefaultQosCrosstalkPoint crosstalk;
    private volatile MeterBinder ownMeters;

    private IsolationRuntime(Builder b) {
        Clock clock = b.clock;
        this.nanoClock = clock::nanoTime;
        this.recorder = new DecisionRecorder(clock::wallMillis);
        this.slowClient = b.slowClientConfig == null ? null : new DefaultSlowClientPoint(
                b.slowClientConfig, b.monitorsConfig, b.slowClientModule, recorder, b.localLoad, clock);
        this.poison = b.poisonConfig == null ? null : new DefaultPoisonMessagePoint(
                b.poisonConfig, b.poisonModule, recorder, nanoClock);
        this.crosstalkConfig = b.crosstalkConfig;
        this.edgeDetector = b.edgeDetector;
        this.edgeSamples = b.edgeSamples;
        this.edgeSamplePeriodNanos = b.edgeSamplePeriodNanos;
        for (DecisionListener l : b.listeners) {
            recorder.addListener(l);
        }
    }

    /** @return a builder with no points and the system clock. */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the slow-client point, if configured. */
    public Optional<SlowClientPoint> slowClient() {
        return Optional.ofNullable(slowClient);
    }

    /** @return the poison-message point, if configured. */
    public Optional<PoisonMessagePoint> poison() {
        return Optional.ofNullable(poison);
    }

    /**
     * Creates the crosstalk point for the selector that owns the connections. SELECTOR THREAD:
     * the point it returns must only be used by that thread.
     *
     * @return the point, or empty when crosstalk is not configured
     */
    public Optional<QosCrosstalkPoint> newCrosstalkPoint(ConnectionTuner tuner) {
        if (crosstalkConfig == null) {
            return Optional.empty();
        }
        DefaultQosCrosstalkPoint p = new DefaultQosCrosstalkPoint(crosstalkConfig,
                Objects.requireNonNull(tuner, "tuner"));
        crosstalk = p;
        return Optional.of(p);
    }

    /** @return the crosstalk config, if configured (so the glue can size things up front). */
    public Optional<CrosstalkConfig> crosstalkConfig() {
        return Optional.ofNullable(crosstalkConfig);
    }

    /**
     * Periodic work: the slow-client windows and policy, the edge detector (when bound; at most
     * once per its sample period) and the poison point's pending episode. Call every 50..500 ms
     * from one thread.
     */
    public void tick(long nowNanos) {
        if (slowClient != null) {
            slowClient.tick(nowNanos);
        }
        if (poison != null) {
            if (edgeDetector != null && edgeSamples != null
                    && (!edgeSampled || nowNanos - lastEdgeSampleNanos >= edgeSamplePeriodNanos)) {
                edgeSampled = true;
                lastEdgeSampleNanos = nowNanos;
                EdgeSample s = edgeSamples.get();
                if (s != null) {
                    edgeDetector.onSample(s).ifPresent(this::onEdge);
                }
            }
            poison.tick(nowNanos);
        }
    }

    /** Routes an edge of the monitors' detector to the poison point. */
    public void onEdge(EdgeEvent event) {
        if (poison == null) {
            return;
        }
        Evidence.Builder e = Evidence.builder()
                .put("throughputPerSecond", event.sample().throughputPerSecond())
                .put("baselineThroughputPerSecond", event.baseline().throughputPerSecond())
                .put("cpuCores", event.sample().cpuCores())
                .put("gcTimeFraction", event.sample().gcTimeFraction())
                .put("allocatedBytesPerSecond", event.sample().allocatedBytesPerSecond());
        if (!Double.isNaN(event.sample().othersCores()) && !Double.isNaN(event.baseline().othersCores())) {
            e.put("othersCores", event.sample().othersCores())
                    .put("baselineOthersCores", event.baseline().othersCores());
        }
        if (event instanceof EdgeEvent.RisingEdge r) {
            e.put("throughputDropPercent", r.throughputDropPercent());
            r.risePercent().forEach((res, pct) -> e.put(res.name().toLowerCase(
                    java.util.Locale.ROOT) + "RisePercent", pct));
            poison.onRisingEdge(event.atNanos(), e.build());
        } else if (event instanceof EdgeEvent.FallingEdge f) {
            e.put("episodeNanos", f.episodeNanos());
            poison.onFallingEdge(event.atNanos(), e.build());
        }
    }

    /** @return whether this node should advertise overload in its load reports (cooperation). */
    public boolean advertisesOverload(long nowNanos) {
        return poison != null && poison.advertisesOverload(nowNanos);
    }

    /** @return whether the poison point is inside an episode now. */
    public boolean inPoisonEpisode() {
        return poison != null && poison.inEpisode();
    }

    /** Adds a listener for every decision event. */
    public void addListener(DecisionListener listener) {
        recorder.addListener(listener);
    }

    /** @return how many decisions of an action a point made since start. */
    public long decisions(PointKind point, Decision.Action action) {
        return recorder.count(point, action);
    }

    /** @return the runtime's monotonic clock. */
    public LongSupplier nanoClock() {
        return nanoClock;
    }

    /** The meters of this runtime alone (see {@link #following} for an ORB that swaps runtimes). */
    @Override
    public void bindTo(MeterRegistry registry) {
        MeterBinder own = ownMeters;
        if (own == null) {
            own = following(() -> this);
            ownMeters = own; // held: Micrometer holds function counters weakly
        }
        own.bindTo(registry);
    }

    /**
     * Meters that always read the runtime {@code current} returns at the time of reading: for an
     * ORB that builds a new runtime at every SLA reload and must keep one set of meters (a
     * registry keeps the first meter registered under a name, so binding each new runtime with
     * {@link #bindTo} would leave the meters reading the first one). Decision counters add up over
     * the runtimes seen, so they never go down; gauges of a point the current SLA lacks read 0.
     * Keep the returned binder as long as its meters are read: Micrometer holds function counters
     * weakly.
     */
    public static MeterBinder following(Supplier<IsolationRuntime> current) {
        return new Following(current);
    }

    private static final class Following implements MeterBinder {
        private final Supplier<IsolationRuntime> current;
        private final long[][] carried = new long[PointKind.values().length][Decision.Action.values().length];
        private IsolationRuntime last;
        private IsolationRuntime lastPoison;
        private long carriedEpisodes;
        private long carriedNamed;

        Following(Supplier<IsolationRuntime> current) {
            this.current = current;
        }

        private synchronized double decisions(PointKind p, Decision.Action a) {
            IsolationRuntime rt = current.get();
            if (rt != last) {
                if (last != null) {
                    for (PointKind k : PointKind.values()) {
                        for (Decision.Action b : Decision.Action.values()) {
                            carried[k.ordinal()][b.ordinal()] += last.decisions(k, b);
                        }
                    }
                }
                last = rt;
            }
            return carried[p.ordinal()][a.ordinal()] + rt.decisions(p, a);
        }

        /** Episodes analysed, or suspects named, carried over SLA reloads like the decisions. */
        private synchronized double poisonCount(boolean named) {
            IsolationRuntime rt = current.get();
            long now = rt.poison == null ? 0 : named ? rt.poison.suspectsNamed() : rt.poison.episodes();
            if (rt != lastPoison) {
                if (lastPoison != null && lastPoison.poison != null) {
                    carriedEpisodes += lastPoison.poison.episodes();
                    carriedNamed += lastPoison.poison.suspectsNamed();
                }
                lastPoison = rt;
            }
            return (named ? carriedNamed : carriedEpisodes) + now;
        }

        @Override
        public void bindTo(MeterRegistry registry) {
            for (PointKind p : PointKind.values()) {
                for (Decision.Action a : Decision.Action.values()) {
                    FunctionCounter.builder("irmi.isolation.decisions", this, f -> f.decisions(p, a))
                            .description("Decisions enforced by an isolation point, by action")
                            .baseUnit("decisions").tag("point", p.metricName()).tag("action", a.metricName())
                            .register(registry);
                }
            }
            Gauge.builder("irmi.isolation.slow_client.triggered_pairs", this, f -> {
                DefaultSlowClientPoint p = f.current.get().slowClient;
                return p == null ? 0 : p.triggeredPairs();
            }).description("Causal pairs whose slow-client point is triggered now").baseUnit("pairs")
                    .strongReference(true).register(registry);
            Gauge.builder("irmi.isolation.poison.filtered", this, f -> {
                DefaultPoisonMessagePoint p = f.current.get().poison;
                return p == null ? 0 : p.filtered().size();
            }).description("Request signatures filtered as poison now (incl. on probation)").baseUnit("signatures")
                    .strongReference(true).register(registry);
            Gauge.builder("irmi.isolation.poison.watching", this, f -> {
                DefaultPoisonMessagePoint p = f.current.get().poison;
                return p != null && p.watching() ? 1 : 0;
            }).description("1 while the poison point watches an episode that has named no suspect (not an alarm)")
                    .baseUnit("episodes").strongReference(true).register(registry);
            FunctionCounter.builder("irmi.isolation.poison.episodes", this, f -> f.poisonCount(false))
                    .description("Poison episodes analysed, whether or not they named a suspect")
                    .baseUnit("episodes").register(registry);
            FunctionCounter.builder("irmi.isolation.poison.named", this, f -> f.poisonCount(true))
                    .description("Suspects named by the poison point (an episode's analysis filtered a request"
                            + " signature or named one by cost)")
                    .baseUnit("suspects").register(registry);
            Gauge.builder("irmi.isolation.poison.in_flight", this, f -> {
                DefaultPoisonMessagePoint p = f.current.get().poison;
                return p == null ? 0 : p.inFlightCount();
            }).description("Requests the poison point tracks as in flight").baseUnit("requests")
                    .strongReference(true).register(registry);
            Gauge.builder("irmi.isolation.crosstalk.active_streams", this, f -> {
                DefaultQosCrosstalkPoint x = f.current.get().crosstalk;
                return x == null ? 0 : x.activeStreams();
            }).description("Streams the QoS-crosstalk point counts as active").baseUnit("streams")
                    .strongReference(true).register(registry);
        }
    }

    /** Builds an {@link IsolationRuntime}. */
    public static final class Builder {
        private Clock clock = Clock.system();
        private SlowClientConfig slowClientConfig;
        private MonitorsConfig monitorsConfig;
        private AdaptationModule slowClientModule;
        private PoisonConfig poisonConfig;
        private AdaptationModule poisonModule;
        private CrosstalkConfig crosstalkConfig;
        private Supplier<LocalLoad> localLoad = () -> LocalLoad.UNKNOWN;
        private EdgeDetector edgeDetector;
        private Supplier<EdgeSample> edgeSamples;
        private long edgeSamplePeriodNanos;
        private final java.util.List<DecisionListener> listeners = new java.util.ArrayList<>();

        private Builder() {
        }

        /**
         * The one time source (the system clock by default): its monotonic nanoseconds drive the
         * points and their windows, its wall milliseconds stamp the decision events.
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * The slow-client point: its thresholds, and the monitors' causal pairs, rate window and
         * remote-resources window (how long a target host's report counts).
         */
        public Builder slowClient(SlowClientConfig config, MonitorsConfig monitors, AdaptationModule module) {
            this.slowClientConfig = Objects.requireNonNull(config, "config");
            this.monitorsConfig = Objects.requireNonNull(monitors, "monitors");
            this.slowClientModule = Objects.requireNonNull(module, "module");
            return this;
        }

        public Builder poison(PoisonConfig config, AdaptationModule module) {
            this.poisonConfig = Objects.requireNonNull(config, "config");
            this.poisonModule = Objects.requireNonNull(module, "module");
            return this;
        }

        public Builder crosstalk(CrosstalkConfig config) {
            this.crosstalkConfig = Objects.requireNonNull(config, "config");
            return this;
        }

        /** This node's load, read at each tick by the slow-client point. */
        public Builder localLoad(Supplier<LocalLoad> localLoad) {
            this.localLoad = Objects.requireNonNull(localLoad, "localLoad");
            return this;
        }

        /** The monitors' edge detector and where its samples come from; sampled at every tick. */
        public Builder edges(EdgeDetector detector, Supplier<EdgeSample> samples) {
            return edges(detector, samples, 0);
        }

        /**
         * The monitors' edge detector and where its samples come from, sampled at the first tick
         * at least {@code samplePeriodNanos} after the previous sample (the SLA's detection
         * window bucket, {@link SlaBindings#edgeSamplePeriodNanos}); 0 samples at every tick.
         */
        public Builder edges(EdgeDetector detector, Supplier<EdgeSample> samples, long samplePeriodNanos) {
            if (samplePeriodNanos < 0) {
                throw new IllegalArgumentException("samplePeriodNanos must not be negative: " + samplePeriodNanos);
            }
            this.edgeDetector = Objects.requireNonNull(detector, "detector");
            this.edgeSamples = Objects.requireNonNull(samples, "samples");
            this.edgeSamplePeriodNanos = samplePeriodNanos;
            return this;
        }

        public Builder listener(DecisionListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        public IsolationRuntime build() {
            return new IsolationRuntime(this);
        }
    }
}
