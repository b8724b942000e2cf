package org.irmi.monitors;

/**
 * One observation fed to an {@link EdgeDetector}: throughput and the resources that rise when a
 * poison message runs. Time is data here; the detector never reads a clock.
 *
 * @param atNanos                  when it was taken (the monitors' clock), nanoseconds
 * @param throughputPerSecond      completed requests per second over the window
 * @param cpuCores                 process CPU over the window, cores (the JVM's sampler leaves its JIT
 *                                 compiler's out: it counts with the others')
 * @param gcTimeFraction           fraction of the window spent in GC, 0..1
 * @param allocatedBytesPerSecond  bytes allocated per second by requests over the window
 * @param othersCores              CPU used by the machine's other processes (and, from the JVM's sampler,
 *                                 this JVM's JIT compiler) over the window, cores
 *                                 (NaN when unknown): when it rises more than this process's own CPU
 *                                 does, a throughput drop is explained by CPU taken by others
 */
public record EdgeSample(long atNanos, double throughputPerSecond, double cpuCores, double gcTimeFraction,
                         double allocatedBytesPerSecond, double othersCores) {

    /** A sample without the other processes' CPU (unknown: NaN). */
    public EdgeSample(long atNanos, double throughputPerSecond, double cpuCores, double gcTimeFraction,
                      double allocatedBytesPerSecond) {
        this(atNanos, throughputPerSecond, cpuCores, gcTimeFraction, allocatedBytesPerSecond, Double.NaN);
    }

    /**
     * Builds a sample from the monitors' snapshots.
     *
     * @param atNanos    when
     * @param throughput a window recording one sample per completed request
     * @param local      local resources
     * @param cost       per-request cost totals (for the allocation rate)
     * @return the sample
     */
    public static EdgeSample of(long atNanos, WindowSnapshot throughput, LocalResourceSnapshot local, CostSnapshot cost) {
        return new EdgeSample(atNanos, throughput.ratePerSecond(), local.processCpuCores(), local.gcTimeFraction(),
                cost.allocatedBytesPerSecond());
    }
}
