package org.irmi.monitors;

/**
 * One observation fed to an {@link EdgeDetector}: throughput and the resources that rise when a
 * poison message runs. Time is data here; the detector never reads a clock.
 *
 * @param atNanos                  when it was taken (the monitors' clock), nanoseconds
 * @param throughputPerSecond      completed requests per second over the window
 * @param cpuCores                 process CPU over the window, cores
 * @param gcTimeFraction           fraction of the window spent in GC, 0..1
 * @param allocatedBytesPerSecond  bytes allocated per second by requests over the window
 */
public record EdgeSample(long atNanos, double throughputPerSecond, double cpuCores, double gcTimeFraction,
                         double allocatedBytesPerSecond) {

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
