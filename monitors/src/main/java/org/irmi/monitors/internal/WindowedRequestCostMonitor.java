package org.irmi.monitors.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.irmi.monitors.Clock;
import org.irmi.monitors.CostSnapshot;
import org.irmi.monitors.RequestCostMonitor;
import org.irmi.monitors.SlidingWindow;
import org.irmi.monitors.StreamKey;
import org.irmi.sla.WindowConfig;

/**
 * {@link RequestCostMonitor} with a pair of {@link SlidingWindow}s (CPU nanos, allocated bytes) for
 * the total, for each operation and for each stream. A request reads the clock once and records into
 * three pairs of windows.
 *
 * <p>Bounded tables: a slot is reserved with an atomic counter before a new stream (operation) is
 * inserted; when none is left the request goes to the overflow entry. Streams whose window is empty
 * are evicted when {@link #streams()} is read, releasing their slots.
 *
 * <p>THREAD-SAFE. Recording is lock-free for known streams; a new operation registers its gauges
 * once, on the thread that first sees it (bounded by {@code maxOperations}).
 */
public final class WindowedRequestCostMonitor implements RequestCostMonitor {

    private final WindowConfig config;
    private final Clock clock;
    private final int maxStreams;
    private final int maxOperations;
    private final Costs total;
    private final Costs overflowStream;
    private final Costs overflowOperation;
    private final ConcurrentHashMap<StreamKey, Costs> streams = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Costs> operations = new ConcurrentHashMap<>();
    private final AtomicInteger streamSlots = new AtomicInteger();
    private final AtomicInteger operationSlots = new AtomicInteger();
    private final List<MeterRegistry> registries = new CopyOnWriteArrayList<>();

    /**
     * @param config        window shape
     * @param clock         time source
     * @param maxStreams    bound on tracked streams, overflow included (&gt;= 1)
     * @param maxOperations bound on tracked operations, overflow included (&gt;= 1)
     */
    public WindowedRequestCostMonitor(WindowConfig config, Clock clock, int maxStreams, int maxOperations) {
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (maxStreams < 1) {
            throw new IllegalArgumentException("maxStreams must be >= 1, was " + maxStreams);
        }
        if (maxOperations < 1) {
            throw new IllegalArgumentException("maxOperations must be >= 1, was " + maxOperations);
        }
        this.maxStreams = maxStreams;
        this.maxOperations = maxOperations;
        this.total = new Costs(config, clock);
        this.overflowStream = new Costs(config, clock);
        this.overflowOperation = new Costs(config, clock);
        operations.put(OVERFLOW_OPERATION, overflowOperation);
        operationSlots.set(1);
        streams.put(StreamKey.OVERFLOW, overflowStream);
        streamSlots.set(1);
    }

    @Override
    public void record(String objectKey, String operation, String client, long cpuNanos, long allocatedBytes) {
        long now = clock.nanoTime();
        long cpu = cpuNanos; // negative: not measured (sampled out); the request still counts
        long alloc = Math.max(0L, allocatedBytes);
        total.record(now, cpu, alloc);
        operationCosts(operation).record(now, cpu, alloc);
        streamCosts(new StreamKey(objectKey, operation, client)).record(now, cpu, alloc);
    }

    private Costs operationCosts(String operation) {
        Costs c = operations.get(operation);
        if (c != null) {
            return c;
        }
        if (operationSlots.incrementAndGet() > maxOperations) {
            operationSlots.decrementAndGet();
            return overflowOperation;
        }
        Costs fresh = new Costs(config, clock);
        Costs raced = operations.putIfAbsent(operation, fresh);
        if (raced != null) {
            operationSlots.decrementAndGet();
            return raced;
        }
        for (MeterRegistry r : registries) {
            bindOperation(r, operation);
        }
        return fresh;
    }

    private Costs streamCosts(StreamKey key) {
        Costs c = streams.get(key);
        if (c != null) {
            return c;
        }
        if (streamSlots.incrementAndGet() > maxStreams) {
            streamSlots.decrementAndGet();
            return overflowStream;
        }
        Costs fresh = new Costs(config, clock);
        Costs raced = streams.putIfAbsent(key, fresh);
        if (raced != null) {
            streamSlots.decrementAndGet();
            return raced;
        }
        return fresh;
    }

    @Override
    public CostSnapshot total() {
        return total.snapshot();
    }

    @Override
    public CostSnapshot operation(String operation) {
        Costs c = operations.get(operation);
        return c == null ? CostSnapshot.EMPTY : c.snapshot();
    }

    @Override
    public Map<String, CostSnapshot> operations() {
        Map<String, CostSnapshot> result = new LinkedHashMap<>();
        operations.forEach((op, c) -> result.put(op, c.snapshot()));
        return result;
    }

    @Override
    public CostSnapshot stream(StreamKey stream) {
        Costs c = streams.get(stream);
        return c == null ? CostSnapshot.EMPTY : c.snapshot();
    }

    @Override
    public Map<StreamKey, CostSnapshot> streams() {
        Map<StreamKey, CostSnapshot> result = new LinkedHashMap<>();
        for (Map.Entry<StreamKey, Costs> e : streams.entrySet()) {
            CostSnapshot s = e.getValue().snapshot();
            if (s.requests() == 0 && e.getKey() != StreamKey.OVERFLOW) {
                // Idle for a whole window: free its slot. A request racing with the removal may be
                // recorded into the removed windows and lost; it then re-creates the stream.
                if (streams.remove(e.getKey(), e.getValue())) {
                    streamSlots.decrementAndGet();
                }
                continue;
            }
            result.put(e.getKey(), s);
        }
        return result;
    }

    /** @return streams currently tracked, overflow included */
    public int trackedStreams() {
        return streams.size();
    }

    @Override
    public int maxStreams() {
        return maxStreams;
    }

    @Override
    public MeterBinder metrics() {
        return r -> {
            bindCosts(r, Tags.of("operation", org.irmi.monitors.OperationLatencyMonitor.ALL_OPERATIONS), this, m -> m.total());
            // no base unit: the name says what is counted, and Prometheus would repeat it
            Gauge.builder("irmi.cost.streams.tracked", this, m -> m.trackedStreams())
                    .description("Request streams tracked by the cost monitor, overflow stream included")
                    .strongReference(true).register(r);
            Gauge.builder("irmi.cost.streams.overflow.requests", this, m -> m.stream(StreamKey.OVERFLOW).requests())
                    .description("Requests in the window accounted to the overflow stream because the stream table was full").baseUnit("requests")
                    .strongReference(true).register(r);
            registries.add(r);
            for (String op : operations.keySet()) {
                bindOperation(r, op);
            }
        };
    }

    private void bindOperation(MeterRegistry r, String op) {
        bindCosts(r, Tags.of("operation", op), this, m -> m.operation(op));
    }

    private static void bindCosts(MeterRegistry r, Tags tags, WindowedRequestCostMonitor m,
                                  java.util.function.Function<WindowedRequestCostMonitor, CostSnapshot> read) {
        gauge(r, "irmi.cost.requests.rate", "Measured requests per second over the window", null /* in the name */, tags, m, read, CostSnapshot::requestsPerSecond);
        gauge(r, "irmi.cost.cpu.mean", "Mean CPU time per request over the window", "seconds", tags, m, read, s -> s.cpuNanosMean() / 1e9);
        gauge(r, "irmi.cost.cpu.max", "Largest CPU time of one request in the window", "seconds", tags, m, read, s -> s.cpuNanosMax() / 1e9);
        gauge(r, "irmi.cost.cpu.rate", "CPU time per second spent in requests over the window", "cores", tags, m, read, s -> s.cpuNanosPerSecond() / 1e9);
        gauge(r, "irmi.cost.allocation.mean", "Mean bytes allocated per request over the window", "bytes", tags, m, read, CostSnapshot::allocatedBytesMean);
        gauge(r, "irmi.cost.allocation.max", "Most bytes allocated by one request in the window", "bytes", tags, m, read, s -> s.allocatedBytesMax());
        gauge(r, "irmi.cost.allocation.rate", "Bytes allocated per second by requests over the window", "bytes/s", tags, m, read, CostSnapshot::allocatedBytesPerSecond);
    }

    private static void gauge(MeterRegistry r, String name, String description, String unit, Tags tags,
                              WindowedRequestCostMonitor m, java.util.function.Function<WindowedRequestCostMonitor, CostSnapshot> read,
                              ToDoubleFunction<CostSnapshot> value) {
        Gauge.builder(name, m, x -> value.applyAsDouble(read.apply(x)))
                .description(description).baseUnit(unit).tags(tags).strongReference(true).register(r);
    }

    /** CPU and allocation windows fed in lock-step. */
    private static final class Costs {
        final SlidingWindow cpu;
        final SlidingWindow alloc;

        Costs(WindowConfig config, Clock clock) {
            this.cpu = SlidingWindow.of(config, clock);
            this.alloc = SlidingWindow.of(config, clock);
        }

        void record(long now, long cpuNanos, long allocatedBytes) {
            if (cpuNanos >= 0) {
                cpu.recordAt(now, cpuNanos);
            }
            alloc.recordAt(now, allocatedBytes); // every request: the request count comes from here
        }

        CostSnapshot snapshot() {
            return CostSnapshot.of(cpu.snapshot(), alloc.snapshot());
        }
    }
}
