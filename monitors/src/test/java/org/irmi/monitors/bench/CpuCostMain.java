package org.irmi.monitors.bench;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.function.Supplier;

import org.irmi.monitors.CausalPairMonitor;
import org.irmi.monitors.Clock;
import org.irmi.monitors.LatencyWindow;
import org.irmi.monitors.RequestCostMonitor;
import org.irmi.monitors.RequestCostSampler;
import org.irmi.monitors.SlidingWindow;
import org.irmi.monitors.ThreadCostProbe;
import org.irmi.sla.WindowConfig;

/**
 * The cost of watching in CPU time per operation, measured with each thread's own CPU clock. On a
 * shared, overloaded machine JMH's wall-clock averages mostly measure how long the benchmark thread
 * waited for a core; the CPU time a thread spends per operation is what monitoring takes away from
 * the service. Complements {@link WindowBenchmark}; run by {@code scripts/jmh-monitors.sh}.
 *
 * <p>Usage: {@code CpuCostMain [threads...]} (default: 1 2). Prints, per path and thread count, the
 * median over 5 rounds of CPU nanoseconds per operation.
 */
public final class CpuCostMain {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final int ROUNDS = 5;

    private CpuCostMain() {
    }

    /** One path under measurement, with a fresh shared state per thread count. */
    private interface Path {
        /** @return an operation for one thread, sharing state built by the factory */
        Runnable forThread();
    }

    /**
     * @param args thread counts to measure
     * @throws Exception if a worker fails
     */
    public static void main(String[] args) throws Exception {
        int[] threadCounts = args.length == 0 ? new int[] {1, 2} : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        Clock clock = Clock.system();
        WindowConfig ten = WindowConfig.of(Duration.ofSeconds(10), 10);
        Map<String, Supplier<Path>> paths = new LinkedHashMap<>();
        Map<String, Integer> opsPerRound = new LinkedHashMap<>();
        paths.put("clock.nanoTime", () -> () -> clock::nanoTime);
        opsPerRound.put("clock.nanoTime", 2_000_000);
        paths.put("SlidingWindow.record", () -> {
            SlidingWindow w = SlidingWindow.of(ten, clock);
            return () -> () -> w.record(42);
        });
        opsPerRound.put("SlidingWindow.record", 2_000_000);
        paths.put("SlidingWindow.snapshot (10 buckets)", () -> {
            SlidingWindow w = SlidingWindow.of(ten, clock);
            w.record(1);
            return () -> w::snapshot;
        });
        opsPerRound.put("SlidingWindow.snapshot (10 buckets)", 200_000);
        paths.put("LatencyWindow.recordNanos", () -> {
            LatencyWindow w = LatencyWindow.of(ten, clock);
            return () -> () -> w.recordNanos(12_345);
        });
        opsPerRound.put("LatencyWindow.recordNanos", 2_000_000);
        paths.put("LatencyWindow.snapshot", () -> {
            LatencyWindow w = LatencyWindow.of(ten, clock);
            w.recordNanos(1_000);
            return () -> w::snapshot;
        });
        opsPerRound.put("LatencyWindow.snapshot", 2_000);
        paths.put("CausalPairMonitor.recordIncoming", () -> {
            CausalPairMonitor m = CausalPairMonitor.of(Map.of("p", 1.0), ten, clock);
            return () -> () -> m.recordIncoming("p");
        });
        opsPerRound.put("CausalPairMonitor.recordIncoming", 2_000_000);
        paths.put("RequestCostMonitor.record", () -> {
            RequestCostMonitor m = RequestCostMonitor.of(ten, clock);
            return () -> () -> m.record("obj-1", "echo", "client-1", 12_000, 512);
        });
        opsPerRound.put("RequestCostMonitor.record", 1_000_000);
        paths.put("thread CPU time read", () -> () -> ThreadCostProbe.jvm()::currentThreadCpuNanos);
        opsPerRound.put("thread CPU time read", 200_000);
        paths.put("thread allocated bytes read", () -> () -> ThreadCostProbe.jvm()::currentThreadAllocatedBytes);
        opsPerRound.put("thread allocated bytes read", 2_000_000);
        paths.put("RequestCostSampler + record (every request)", () -> {
            RequestCostMonitor m = RequestCostMonitor.of(ten, clock);
            return () -> {
                RequestCostSampler s = RequestCostSampler.jvm(1);
                return () -> measuredRequest(s, m);
            };
        });
        opsPerRound.put("RequestCostSampler + record (every request)", 200_000);
        paths.put("RequestCostSampler + record (1 in 16)", () -> {
            RequestCostMonitor m = RequestCostMonitor.of(ten, clock);
            return () -> {
                RequestCostSampler s = RequestCostSampler.jvm(16);
                return () -> measuredRequest(s, m);
            };
        });
        opsPerRound.put("RequestCostSampler + record (1 in 16)", 2_000_000);

        System.out.printf("%-40s %8s %16s%n", "path", "threads", "CPU ns/op (median of " + ROUNDS + ")");
        for (Map.Entry<String, Supplier<Path>> e : paths.entrySet()) {
            for (int threads : threadCounts) {
                double ns = measure(e.getValue().get(), threads, opsPerRound.get(e.getKey()));
                System.out.printf("%-40s %8d %16.1f%n", e.getKey(), threads, ns);
            }
        }
    }

    /** One request's cost path on a dispatch thread: the sampler's reads before and after, then the record. */
    private static void measuredRequest(RequestCostSampler s, RequestCostMonitor m) {
        long cpu0 = s.measure("echo", System.nanoTime()) ? s.cpuNanos() : -1;
        long alloc0 = s.allocatedBytes();
        long cpu = cpu0 >= 0 ? s.cpuNanos() - cpu0 : -1;
        m.record("obj-1", "echo", "client-1", cpu, s.allocatedBytes() - alloc0);
    }

    private static double measure(Path path, int threads, int ops) throws Exception {
        double[] perRound = new double[ROUNDS];
        CyclicBarrier barrier = new CyclicBarrier(threads);
        List<Thread> workers = new ArrayList<>();
        double[][] results = new double[threads][ROUNDS];
        Throwable[] failure = new Throwable[1];
        for (int t = 0; t < threads; t++) {
            int index = t;
            Runnable op = path.forThread();
            Thread worker = new Thread(() -> {
                try {
                    for (int i = 0; i < ops; i++) {
                        op.run(); // warm-up
                    }
                    for (int r = 0; r < ROUNDS; r++) {
                        barrier.await();
                        long start = THREADS.getCurrentThreadCpuTime();
                        for (int i = 0; i < ops; i++) {
                            op.run();
                        }
                        results[index][r] = (double) (THREADS.getCurrentThreadCpuTime() - start) / ops;
                    }
                } catch (Throwable e) {
                    failure[0] = e;
                }
            }, "cpu-cost-" + t);
            workers.add(worker);
            worker.start();
        }
        for (Thread w : workers) {
            w.join();
        }
        if (failure[0] != null) {
            throw new IllegalStateException("worker failed", failure[0]);
        }
        for (int r = 0; r < ROUNDS; r++) {
            double sum = 0;
            for (int t = 0; t < threads; t++) {
                sum += results[t][r];
            }
            perRound[r] = sum / threads;
        }
        Arrays.sort(perRound);
        return perRound[ROUNDS / 2];
    }
}
