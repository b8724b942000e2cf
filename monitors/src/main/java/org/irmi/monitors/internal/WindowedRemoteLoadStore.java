package org.irmi.monitors.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.irmi.monitors.Clock;
import org.irmi.monitors.LoadReport;
import org.irmi.monitors.LoadReportCodec;
import org.irmi.monitors.RemoteHostSnapshot;
import org.irmi.monitors.RemoteLoadStore;
import org.irmi.monitors.SlidingWindow;
import org.irmi.sla.WindowConfig;
import org.irmi.monitors.WindowSnapshot;

/**
 * {@link RemoteLoadStore} with four {@link SlidingWindow}s per host (CPU, heap, queue, GC time), the
 * latest report and the smoothed round trip. THREAD-SAFE: the host table is a concurrent map;
 * eviction of the host heard from least recently when full happens under the store's monitor (rare:
 * only for a new host on a full table); the latest report and the round trip are each one immutable
 * value swapped whole (the round trip by compare-and-set), so readers never see halves.
 */
public final class WindowedRemoteLoadStore implements RemoteLoadStore {

    private final WindowConfig config;
    private final Clock clock;
    private final int maxHosts;
    private final ConcurrentHashMap<String, Host> hosts = new ConcurrentHashMap<>();
    private final LongAdder malformed = new LongAdder();

    /**
     * @param config   window per host
     * @param clock    time source
     * @param maxHosts bound on hosts (&gt;= 1)
     */
    public WindowedRemoteLoadStore(WindowConfig config, Clock clock, int maxHosts) {
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (maxHosts < 1) {
            throw new IllegalArgumentException("maxHosts must be >= 1, was " + maxHosts);
        }
        this.maxHosts = maxHosts;
    }

    @Override
    public void onReport(String host, LoadReport report) {
        onReport(host, report, clock.nanoTime());
    }

    @Override
    public void onReport(String host, LoadReport report, long receivedAtNanos) {
        Objects.requireNonNull(report, "report");
        host(host).record(receivedAtNanos, report);
    }

    @Override
    public void onRoundTrip(String host, long rttNanos) {
        if (rttNanos <= 0) {
            throw new IllegalArgumentException("rttNanos must be > 0, was " + rttNanos);
        }
        host(host).roundTrip(clock.nanoTime(), rttNanos);
    }

    private Host host(String host) {
        Objects.requireNonNull(host, "host");
        Host h = hosts.get(host);
        return h != null ? h : addHost(host);
    }

    /** Adds a host, evicting the one heard from least recently when the table is full. */
    private synchronized Host addHost(String host) {
        Host existing = hosts.get(host);
        if (existing != null) {
            return existing;
        }
        while (hosts.size() >= maxHosts) {
            Map.Entry<String, Host> stalest = null;
            for (Map.Entry<String, Host> e : hosts.entrySet()) {
                if (stalest == null || e.getValue().heardNanos < stalest.getValue().heardNanos) {
                    stalest = e;
                }
            }
            hosts.remove(stalest.getKey());
        }
        Host h = new Host(host, config, clock);
        h.heardNanos = clock.nanoTime();
        hosts.put(host, h);
        return h;
    }

    @Override
    public boolean onServiceContext(String host, byte[] data) {
        if (data == null) {
            return false;
        }
        Optional<LoadReport> report = LoadReportCodec.tryDecode(data);
        if (report.isEmpty()) {
            malformed.increment();
            return false;
        }
        onReport(host, report.get());
        return true;
    }

    @Override
    public Optional<RemoteHostSnapshot> snapshot(String host) {
        Host h = hosts.get(host);
        return h == null ? Optional.empty() : Optional.of(h.snapshot(clock.nanoTime()));
    }

    @Override
    public List<String> hosts() {
        return new ArrayList<>(hosts.keySet());
    }

    @Override
    public long malformedReports() {
        return malformed.sum();
    }

    @Override
    public MeterBinder metrics() {
        return r -> {
            Gauge.builder("irmi.remote.hosts", hosts, Map::size).description("Remote hosts with a load report in the store")
                    .baseUnit("hosts").strongReference(true).register(r);
            Gauge.builder("irmi.remote.cpu.max", this, s -> s.maxOver(x -> x.meanCpuPermille() / 1000.0))
                    .description("Highest mean CPU fraction reported by any remote host over the window").baseUnit("ratio")
                    .strongReference(true).register(r);
            Gauge.builder("irmi.remote.heap.max", this, s -> s.maxOver(x -> x.meanHeapPermille() / 1000.0))
                    .description("Highest mean heap pressure reported by any remote host over the window").baseUnit("ratio")
                    .strongReference(true).register(r);
            Gauge.builder("irmi.remote.queue.max", this, s -> s.maxOver(x -> x.maxQueueLength()))
                    .description("Longest queue reported by any remote host over the window").baseUnit("requests")
                    .strongReference(true).register(r);
            Gauge.builder("irmi.remote.overloaded", this, s -> s.maxOver(x -> x.latest() != null && x.latest().overloaded() ? 1 : 0))
                    .description("Remote hosts whose latest report says overloaded, as 1 if any").baseUnit("hosts")
                    .strongReference(true).register(r);
            // The function captures this: FunctionCounter holds its object weakly but its function strongly.
            // no base unit: the name says what is counted, and Prometheus would repeat it
            FunctionCounter.builder("irmi.remote.reports.malformed", this, s -> malformedReports())
                    .description("Load report service contexts that could not be decoded and were dropped")
                    .register(r);
        };
    }

    private double maxOver(java.util.function.ToDoubleFunction<RemoteHostSnapshot> f) {
        long now = clock.nanoTime();
        double max = 0;
        for (Host h : hosts.values()) {
            max = Math.max(max, f.applyAsDouble(h.snapshot(now)));
        }
        return max;
    }

    /** A report and when it arrived, swapped as one. */
    private record Latest(LoadReport report, long atNanos) {
    }

    /** A smoothed round trip and when its last sample was recorded, swapped as one. */
    private record RoundTrip(double smoothedNanos, long atNanos) {
    }

    /** One host's windows. */
    private static final class Host {
        final String name;
        final SlidingWindow cpu;
        final SlidingWindow heap;
        final SlidingWindow queue;
        final SlidingWindow gc;
        volatile Latest latest;
        final AtomicReference<RoundTrip> rtt = new AtomicReference<>(new RoundTrip(Double.NaN, 0L));
        /** When a report or a round trip was last recorded: the eviction order. */
        volatile long heardNanos;

        Host(String name, WindowConfig config, Clock clock) {
            this.name = name;
            this.cpu = SlidingWindow.of(config, clock);
            this.heap = SlidingWindow.of(config, clock);
            this.queue = SlidingWindow.of(config, clock);
            this.gc = SlidingWindow.of(config, clock);
        }

        void record(long now, LoadReport r) {
            cpu.recordAt(now, r.cpuPermille());
            heap.recordAt(now, r.heapPermille());
            queue.recordAt(now, r.queueLength());
            gc.recordAt(now, r.gcTimePermille());
            latest = new Latest(r, now);
            heardNanos = now;
        }

        void roundTrip(long now, long sampleNanos) {
            RoundTrip prev;
            RoundTrip next;
            do {
                prev = rtt.get();
                double s = Double.isNaN(prev.smoothedNanos()) ? sampleNanos
                        : prev.smoothedNanos() + (sampleNanos - prev.smoothedNanos()) / 4;
                next = new RoundTrip(s, now);
            } while (!rtt.compareAndSet(prev, next));
            heardNanos = now;
        }

        RemoteHostSnapshot snapshot(long now) {
            WindowSnapshot c = cpu.snapshot();
            Latest l = latest;
            RoundTrip r = rtt.get();
            return new RemoteHostSnapshot(name, l == null ? null : l.report(), l == null ? 0L : l.atNanos(),
                    l == null ? Long.MAX_VALUE : Math.max(0L, now - l.atNanos()), c.count(), c.mean(),
                    heap.snapshot().mean(), queue.snapshot().max(), gc.snapshot().mean(), r.smoothedNanos(), r.atNanos());
        }
    }
}
