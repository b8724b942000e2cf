package org.irmi.monitors.bench;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.irmi.monitors.CausalPairMonitor;
import org.irmi.monitors.Clock;
import org.irmi.monitors.LatencySnapshot;
import org.irmi.monitors.LatencyWindow;
import org.irmi.monitors.RequestCostMonitor;
import org.irmi.monitors.RequestCostSampler;
import org.irmi.monitors.SlidingWindow;
import org.irmi.sla.WindowConfig;
import org.irmi.monitors.WindowSnapshot;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The cost of watching: record and snapshot of the windows and the per-request paths, against the
 * system clock. Run with {@code scripts/jmh-monitors.sh} (see docs/monitors.md); a benchmark program,
 * not a test.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class WindowBenchmark {

    private final Clock clock = Clock.system();
    private SlidingWindow window10;
    private SlidingWindow window100;
    private LatencyWindow latency;
    private CausalPairMonitor pairs;
    private RequestCostMonitor cost;

    /** Builds fresh monitors, with some history so snapshots have buckets to walk. */
    @Setup(Level.Trial)
    public void setUp() {
        WindowConfig ten = WindowConfig.of(Duration.ofSeconds(10), 10);
        window10 = SlidingWindow.of(ten, clock);
        window100 = SlidingWindow.of(WindowConfig.of(Duration.ofSeconds(10), 100), clock);
        latency = LatencyWindow.of(ten, clock);
        pairs = CausalPairMonitor.of(Map.of("events", 1.0), ten, clock);
        cost = RequestCostMonitor.of(ten, clock);
        for (int i = 0; i < 1_000; i++) {
            window10.record(i);
            window100.record(i);
            latency.recordNanos(1_000 + i);
        }
    }

    /** Per-thread sampler, as a dispatch worker would keep it. */
    @State(Scope.Thread)
    public static class Worker {
        RequestCostSampler sampler;
        RequestCostSampler sampler16;
        RequestCostMonitor cost;

        /** @param b the shared benchmark state */
        @Setup(Level.Trial)
        public void setUp(WindowBenchmark b) {
            sampler = RequestCostSampler.jvm(1);
            sampler16 = RequestCostSampler.jvm(16);
            cost = b.cost;
        }

        void request(RequestCostSampler s) {
            long cpu0 = s.measure("echo", System.nanoTime()) ? s.cpuNanos() : -1;
            long alloc0 = s.allocatedBytes();
            long cpu = cpu0 >= 0 ? s.cpuNanos() - cpu0 : -1;
            cost.record("obj-1", "echo", "client-1", cpu, s.allocatedBytes() - alloc0);
        }
    }

    /** @return the clock alone, the floor under every record */
    @Benchmark
    public long clockNanoTime() {
        return clock.nanoTime();
    }

    /** Records one sample into a 10-bucket window. */
    @Benchmark
    public void windowRecord() {
        window10.record(42);
    }

    /** @return a snapshot of a 10-bucket window */
    @Benchmark
    public WindowSnapshot windowSnapshot10Buckets() {
        return window10.snapshot();
    }

    /** @return a snapshot of a 100-bucket window (min/max walk all buckets) */
    @Benchmark
    public WindowSnapshot windowSnapshot100Buckets() {
        return window100.snapshot();
    }

    /** Records one latency into the HdrHistogram window. */
    @Benchmark
    public void latencyRecord() {
        latency.recordNanos(12_345);
    }

    /** @return a latency snapshot (copies and merges histograms) */
    @Benchmark
    public LatencySnapshot latencySnapshot() {
        return latency.snapshot();
    }

    /** Counts one incoming call of a causal pair (map lookup + window record). */
    @Benchmark
    public void pairRecordIncoming() {
        pairs.recordIncoming("events");
    }

    /** Accounts one request whose cost is already known (three pairs of windows, stream lookup). */
    @Benchmark
    public void costRecordKnown() {
        cost.record("obj-1", "echo", "client-1", 12_000, 512);
    }

    /**
     * The whole per-request cost path on a dispatch thread: thread CPU time and allocated bytes read
     * twice through com.sun.management.ThreadMXBean, then the record.
     *
     * @param w the worker's sampler
     */
    @Benchmark
    public void costSamplerBeginEnd(Worker w) {
        w.request(w.sampler);
    }

    /**
     * The per-request cost path measuring one request in 16 (what a fast service should use).
     *
     * @param w the worker's sampler
     */
    @Benchmark
    public void costSamplerEvery16(Worker w) {
        w.request(w.sampler16);
    }

    /**
     * The thread CPU time read alone (the dearest part of the sampler).
     *
     * @param bh sink
     */
    @Benchmark
    public void threadCpuTimeRead(Blackhole bh) {
        bh.consume(org.irmi.monitors.ThreadCostProbe.jvm().currentThreadCpuNanos());
    }

    /**
     * The thread allocated-bytes read alone.
     *
     * @param bh sink
     */
    @Benchmark
    public void threadAllocatedBytesRead(Blackhole bh) {
        bh.consume(org.irmi.monitors.ThreadCostProbe.jvm().currentThreadAllocatedBytes());
    }
}
