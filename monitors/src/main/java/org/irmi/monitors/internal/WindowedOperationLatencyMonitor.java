package org.irmi.monitors.internal;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.irmi.monitors.Clock;
import org.irmi.monitors.LatencySnapshot;
import org.irmi.monitors.LatencyWindow;
import org.irmi.monitors.OperationLatencyMonitor;
import org.irmi.sla.WindowConfig;

/**
 * {@link OperationLatencyMonitor} with one {@link LatencyWindow} per operation and one for the total.
 * The operation table is bounded by reserving a slot before inserting (as in the cost monitor).
 *
 * <p>Besides the window's gauges ({@code irmi.latency.p99}, ...), which one instance computes and
 * no query can combine, each operation has a timer {@code irmi.latency} with a percentile
 * histogram: Prometheus serves it as {@code irmi_latency_seconds_bucket{operation,le}}, and
 * {@code histogram_quantile(0.99, sum by (le) (rate(irmi_latency_seconds_bucket[5m])))} is the p99
 * of every instance and operation together. Its buckets span {@link #HISTOGRAM_MIN} to
 * {@link #HISTOGRAM_MAX} (77 per operation, the operations bounded by {@code maxOperations});
 * the total ({@code operation="(all)"}) has none, so summing over operations counts each request once.
 * The timer records the duration measured by the caller of {@link #record}; it reads no clock.
 *
 * <p>THREAD-SAFE. A new operation registers its gauges and timer once, on the thread that first sees it.
 */
public final class WindowedOperationLatencyMonitor implements OperationLatencyMonitor {

    /** The smallest latency the histogram tells apart: faster requests share its first bucket. */
    public static final Duration HISTOGRAM_MIN = Duration.ofNanos(100_000);
    /** The largest latency the histogram tells apart: slower requests fall in its {@code +Inf} bucket. */
    public static final Duration HISTOGRAM_MAX = Duration.ofSeconds(10);

    private final WindowConfig config;
    private final Clock clock;
    private final int maxOperations;
    private final Op total;
    private final Op overflow;
    private final ConcurrentHashMap<String, Op> operations = new ConcurrentHashMap<>();
    private final AtomicInteger slots = new AtomicInteger(1);
    private final List<MeterRegistry> registries = new CopyOnWriteArrayList<>();

    /**
     * @param config        window shape
     * @param clock         time source
     * @param maxOperations bound on tracked operations, overflow included (&gt;= 1)
     */
    public WindowedOperationLatencyMonitor(WindowConfig config, Clock clock, int maxOperations) {
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (maxOperations < 1) {
            throw new IllegalArgumentException("maxOperations must be >= 1, was " + maxOperations);
        }
        this.maxOperations = maxOperations;
        this.total = new Op(LatencyWindow.of(config, clock));
        this.overflow = new Op(LatencyWindow.of(config, clock));
        operations.put(OVERFLOW_OPERATION, overflow);
    }

    @Override
    public void record(String operation, long nanos) {
        total.window.recordNanos(nanos);
        Op o = op(operation);
        o.window.recordNanos(nanos);
        for (Timer t : o.timers) {
            t.record(nanos, TimeUnit.NANOSECONDS);
        }
    }

    private Op op(String operation) {
        Op o = operations.get(operation);
        if (o != null) {
            return o;
        }
        if (slots.incrementAndGet() > maxOperations) {
            slots.decrementAndGet();
            return overflow;
        }
        Op fresh = new Op(LatencyWindow.of(config, clock));
        Op raced = operations.putIfAbsent(operation, fresh);
        if (raced != null) {
            slots.decrementAndGet();
            return raced;
        }
        for (MeterRegistry r : registries) {
            bind(r, Tags.of("operation", operation), fresh);
        }
        return fresh;
    }

    @Override
    public LatencySnapshot snapshot(String operation) {
        Op o = operations.get(operation);
        return o == null ? LatencySnapshot.EMPTY : o.window.snapshot();
    }

    @Override
    public LatencySnapshot total() {
        return total.window.snapshot();
    }

    @Override
    public Map<String, LatencySnapshot> snapshots() {
        Map<String, LatencySnapshot> result = new LinkedHashMap<>();
        operations.forEach((op, o) -> result.put(op, o.window.snapshot()));
        return result;
    }

    @Override
    public MeterBinder metrics() {
        return r -> {
            bindGauges(r, Tags.of("operation", org.irmi.monitors.OperationLatencyMonitor.ALL_OPERATIONS), total);
            registries.add(r);
            operations.forEach((op, o) -> bind(r, Tags.of("operation", op), o));
        };
    }

    /** An operation's gauges and its histogram timer. */
    private void bind(MeterRegistry r, Tags tags, Op o) {
        bindGauges(r, tags, o);
        o.addTimer(Timer.builder("irmi.latency")
                .description("Request latency by operation, a histogram to aggregate across instances")
                .tags(tags).publishPercentileHistogram().minimumExpectedValue(HISTOGRAM_MIN)
                .maximumExpectedValue(HISTOGRAM_MAX).register(r));
    }

    private void bindGauges(MeterRegistry r, Tags tags, Op o) {
        gauge(r, "irmi.latency.count", "Requests in the latency window", "requests", tags, o, LatencySnapshot::count);
        gauge(r, "irmi.latency.mean", "Mean latency over the window", "seconds", tags, o, s -> s.meanNanos() / 1e9);
        gauge(r, "irmi.latency.p50", "Median latency over the window", "seconds", tags, o, s -> s.p50Nanos() / 1e9);
        gauge(r, "irmi.latency.p99", "99th percentile latency over the window", "seconds", tags, o, s -> s.p99Nanos() / 1e9);
        gauge(r, "irmi.latency.p999", "99.9th percentile latency over the window", "seconds", tags, o, s -> s.p999Nanos() / 1e9);
        gauge(r, "irmi.latency.max", "Largest latency in the window", "seconds", tags, o, s -> s.maxNanos() / 1e9);
    }

    private void gauge(MeterRegistry r, String name, String description, String unit, Tags tags, Op o,
                       ToDoubleFunction<LatencySnapshot> read) {
        Gauge.builder(name, o, x -> read.applyAsDouble(x.forGauges(clock.nanoTime())))
                .description(description).baseUnit(unit).tags(tags).strongReference(true).register(r);
    }

    /** One operation's window and the snapshot its gauges share. */
    private static final class Op {
        final LatencyWindow window;
        /** One per registry bound; replaced, never changed, so recording reads it without a lock. */
        volatile Timer[] timers = new Timer[0];
        private long snapshotAtNanos; // guarded by this
        private LatencySnapshot snapshot; // guarded by this

        Op(LatencyWindow window) {
            this.window = window;
        }

        /** Adds a registry's timer once (a registry bound while the operation appears may return it twice). */
        synchronized void addTimer(Timer t) {
            Timer[] now = timers;
            for (Timer x : now) {
                if (x == t) {
                    return;
                }
            }
            Timer[] more = Arrays.copyOf(now, now.length + 1);
            more[now.length] = t;
            timers = more;
        }

        synchronized LatencySnapshot forGauges(long now) {
            if (snapshot == null || now - snapshotAtNanos >= GAUGE_SNAPSHOT_NANOS) {
                snapshot = window.snapshot();
                snapshotAtNanos = now;
            }
            return snapshot;
        }
    }
}
