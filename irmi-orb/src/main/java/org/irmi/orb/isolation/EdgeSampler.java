package org.irmi.orb.isolation;

import java.util.concurrent.atomic.LongAdder;

import org.irmi.monitors.Clock;
import org.irmi.monitors.EdgeSample;
import org.irmi.monitors.ResourceProbe;

/**
 * What the poison point's edge detector weighs, every figure over the same interval (since the last
 * sample): completions per second, bytes allocated per second by requests, this process's CPU in
 * cores outside its JIT compiler, the fraction of the interval spent in GC, and the CPU everything
 * else used, in cores: the machine's other processes and this JVM's JIT compiler.
 *
 * <pre>
 *   throughput = completions / dt        cpuCores    = max(0, processCpu - compilerCpu) / dt
 *   allocation = allocatedBytes / dt     gcFraction  = gcTime / dt
 *   othersCores = max(0, machineCpu / dt - cpuCores)
 * </pre>
 * The JIT's compilations count as the others' CPU: a compilation takes the process's cores (or its
 * CPU quota) from the requests as another process would, and is not a request's doing. Counted as
 * the process's own, a burst of compilation under a steady load (one trial on the paper's DayTrader
 * load, 0.4 of a core: three episodes in 8 minutes with nothing wrong, the CPU up 60-420% as
 * throughput fell 19-23%) looked like a poison. Where the compiler's CPU is unknown it is taken as 0.
 * Each over the interval and not over the monitors' longer resource window: a window of 2 s would
 * spread one collection or one heavy request over four samples of 0.5 s, where the drop it is set
 * against is one sample's.
 *
 * <p>THREADING: {@link #onCompletion} from dispatch threads (adders, wait-free); {@link #sample}
 * from one thread at a time (the runtime's edge sampling, on the ticker thread).
 */
final class EdgeSampler {

    private final Clock clock;
    private final ResourceProbe probe;
    // fed on dispatch threads, read by the sampler
    private final LongAdder completions = new LongAdder();
    private final LongAdder allocatedBytes = new LongAdder();
    // sampling thread only
    private long lastSampleNanos;
    private long lastCompletions;
    private long lastAllocated;
    private long lastCpuNanos;
    private long lastGcNanos;
    private long lastMachineNanos;
    private long lastCompilerNanos;

    /** The first sample covers the time from now. */
    EdgeSampler(Clock clock, ResourceProbe probe) {
        this.clock = clock;
        this.probe = probe;
        this.lastSampleNanos = clock.nanoTime();
        this.lastCpuNanos = probe.processCpuNanos();
        this.lastGcNanos = probe.gcTimeNanos();
        this.lastMachineNanos = probe.machineCpuNanos();
        this.lastCompilerNanos = probe.compilerCpuNanos();
    }

    /** One request completed, having allocated {@code allocatedBytes} (negative: not measured). */
    void onCompletion(long allocatedBytes) {
        completions.increment();
        this.allocatedBytes.add(Math.max(0, allocatedBytes));
    }

    /** @return the rates since the last sample (at least a millisecond is assumed to have passed) */
    EdgeSample sample() {
        long now = clock.nanoTime();
        long c = completions.sum();
        long a = allocatedBytes.sum();
        long cpu = probe.processCpuNanos();
        long gc = probe.gcTimeNanos();
        long machine = probe.machineCpuNanos();
        long compiler = probe.compilerCpuNanos();
        double nanos = Math.max(1e6, now - lastSampleNanos);
        long compiled = compiler < 0 || lastCompilerNanos < 0 ? 0 : Math.max(0, compiler - lastCompilerNanos);
        double cpuCores = cpu < 0 || lastCpuNanos < 0 ? 0.0 : Math.max(0, cpu - lastCpuNanos - compiled) / nanos;
        double gcFraction = gc < 0 || lastGcNanos < 0 ? 0.0 : Math.max(0, gc - lastGcNanos) / nanos;
        double others = machine < 0 || lastMachineNanos < 0 || cpu < 0 ? Double.NaN
                : Math.max(0.0, Math.max(0, machine - lastMachineNanos) / nanos - cpuCores);
        EdgeSample sample = new EdgeSample(now, (c - lastCompletions) / (nanos / 1e9), cpuCores, gcFraction,
                (a - lastAllocated) / (nanos / 1e9), others);
        lastSampleNanos = now;
        lastCompletions = c;
        lastAllocated = a;
        lastCpuNanos = cpu;
        lastGcNanos = gc;
        lastMachineNanos = machine;
        lastCompilerNanos = compiler;
        return sample;
    }
}
