package org.irmi.orb.isolation;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Gauge;

import org.irmi.monitors.Clock;
import org.irmi.monitors.LatencySnapshot;
import org.irmi.monitors.OperationLatencyMonitor;
import org.irmi.sla.WindowConfig;
import org.irmi.sla.ServiceObjective;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks the SLA's service objectives against what this server measures: per-operation latency
 * (from the first to the last server interceptor point), throughput and system-exception rate over
 * the SLA's {@code monitors.latency} window.
 *
 * <p>For an objective over a glob, the p99 is the largest p99 of the matching operations (a
 * conservative bound: merging percentiles exactly would need the histograms), throughput is the
 * matching calls per second over the window, and the error rate is matching failed calls over
 * matching calls. A change between met and violated is logged as a structured event (WARN when
 * violated, INFO when met again) and shown by the gauge {@code irmi.sla.violated} (0 or 1, tag
 * {@code objective} = the glob; bounded by the number of objectives).
 *
 * <p>THREADING: {@link #record} from dispatch threads (wait-free monitors); {@link #evaluate} and
 * {@link #configure} from the ticker thread.
 */
final class ObjectiveMonitor {

    private static final Logger LOG = LoggerFactory.getLogger(ObjectiveMonitor.class);

    private final Clock clock;
    private final java.util.function.Consumer<io.micrometer.core.instrument.binder.MeterBinder> bind;
    private final Map<String, Boolean> violated = new ConcurrentHashMap<>();
    private volatile List<ServiceObjective> objectives = List.of();
    /** The last evaluation, for dashboards; replaced whole by {@link #evaluate}. */
    private volatile List<ObjectiveStatus> statuses = List.of();
    private volatile OperationLatencyMonitor all;
    private volatile OperationLatencyMonitor failed;
    private volatile double windowSeconds = 1;
    private WindowConfig latencyWindow;

    /** @param bind binds meters where the ORB keeps them */
    ObjectiveMonitor(Clock clock, java.util.function.Consumer<io.micrometer.core.instrument.binder.MeterBinder> bind) {
        this.clock = clock;
        this.bind = bind;
    }

    /** Applies the objectives and the latency window of an SLA (fresh windows). */
    void configure(List<ServiceObjective> newObjectives, WindowConfig window) {
        WindowConfig w = window;
        if (!w.equals(latencyWindow)) { // a reload that keeps the window keeps the measurements (and meters)
            latencyWindow = w;
            all = OperationLatencyMonitor.of(w, clock);
            failed = OperationLatencyMonitor.of(w, clock);
        }
        windowSeconds = Math.max(1e-3, window.length().toNanos() / 1e9);
        objectives = List.copyOf(newObjectives);
        statuses = List.of();
        violated.clear();
        for (ServiceObjective o : objectives) {
            String name = o.operation().toString();
            violated.put(name, false);
            bind.accept(r -> Gauge.builder("irmi.sla.violated", this, m -> Boolean.TRUE.equals(m.violated.get(name)) ? 1 : 0)
                    .description("1 while the SLA objective for these operations is violated, else 0")
                    .tag("objective", name).register(r));
        }
    }

    /**
     * Binds the per-operation latency meters ({@code irmi.latency.*}) of the window in force. A
     * reload that changes {@code monitors.latency} starts new windows; the meters keep reading the
     * first ones (a registry keeps the first meter of a name) until the ORB restarts.
     */
    void bindLatency() {
        OperationLatencyMonitor a = all;
        if (a != null) {
            bind.accept(a.metrics());
        }
    }

    /** One finished request. */
    void record(String operation, long elapsedNanos, boolean systemException) {
        OperationLatencyMonitor a = all;
        if (a == null) {
            return;
        }
        a.record(operation, elapsedNanos);
        if (systemException) {
            failed.record(operation, elapsedNanos);
        }
    }

    /** Compares every objective with the window now. */
    void evaluate() {
        OperationLatencyMonitor a = all;
        if (a == null || objectives.isEmpty()) {
            return;
        }
        Map<String, LatencySnapshot> done = a.snapshots();
        Map<String, LatencySnapshot> bad = failed.snapshots();
        List<ObjectiveStatus> evaluated = new java.util.ArrayList<>();
        for (ServiceObjective o : objectives) {
            long count = 0;
            long errors = 0;
            long p99 = 0;
            for (Map.Entry<String, LatencySnapshot> e : done.entrySet()) {
                if (o.operation().matches(e.getKey())) {
                    count += e.getValue().count();
                    p99 = Math.max(p99, e.getValue().p99Nanos());
                    LatencySnapshot f = bad.get(e.getKey());
                    errors += f == null ? 0 : f.count();
                }
            }
            double throughput = count / windowSeconds;
            double errorPercent = count == 0 ? 0 : 100.0 * errors / count;
            String why = null;
            if (count > 0 && o.p99Latency().isPresent() && p99 > o.p99Latency().get().toNanos()) {
                why = "p99=" + Duration.ofNanos(p99) + " > " + o.p99Latency().get();
            } else if (o.minThroughputPerSecond().isPresent() && throughput < o.minThroughputPerSecond().getAsDouble()) {
                why = String.format("throughput=%.1f/s < %.1f/s", throughput, o.minThroughputPerSecond().getAsDouble());
            } else if (count > 0 && o.maxErrorRatePercent().isPresent()
                    && errorPercent > o.maxErrorRatePercent().getAsDouble()) {
                why = String.format("errorRate=%.2f%% > %.2f%%", errorPercent, o.maxErrorRatePercent().getAsDouble());
            }
            String name = o.operation().toString();
            boolean now = why != null;
            evaluated.add(new ObjectiveStatus(name, o.p99Latency().map(Duration::toNanos).orElse(-1L),
                    o.minThroughputPerSecond().orElse(Double.NaN), o.maxErrorRatePercent().orElse(Double.NaN),
                    count, p99, throughput, errorPercent, now, now ? why : ""));
            Boolean before = violated.put(name, now);
            if (before != null && before != now) {
                if (now) {
                    LOG.warn("irmi sla objective violated objective={} {} calls={} window={}s", name, why, count,
                            windowSeconds);
                } else {
                    LOG.info("irmi sla objective met again objective={} calls={} p99Nanos={}", name, count, p99);
                }
            }
        }
        statuses = List.copyOf(evaluated);
    }

    /** @return every objective against its last measurement (empty before the first evaluation); any thread */
    List<ObjectiveStatus> statuses() {
        return statuses;
    }

    /** Whether the objective over {@code glob} is violated now (for tests and tools). */
    boolean isViolated(String glob) {
        return Boolean.TRUE.equals(violated.get(glob));
    }
}
