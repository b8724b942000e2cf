package org.irmi.monitors;

/**
 * The local node's resources: instantaneous readings plus per-window GC and CPU figures.
 *
 * @param processCpuCores      CPU used by the process over the window, in cores (1.0 = one core busy)
 * @param processCpuFraction   {@code processCpuCores / availableProcessors}, 0..1
 * @param systemLoadAverage    OS load average of the last minute (negative if unavailable)
 * @param gcCount              garbage collections in the window
 * @param gcTimeNanos          time spent in those collections, nanoseconds
 * @param gcTimeFraction       {@code gcTimeNanos / covered time}, 0..1 (may exceed 1 with concurrent collectors)
 * @param gcPerSecond          collections per second over the window
 * @param heapUsedBytes        heap in use now
 * @param heapMaxBytes         maximum heap
 * @param heapAfterGcBytes     heap in use right after the last collection (0 before the first one)
 * @param liveThreads          live threads now
 * @param handOffQueueLength   sum of the lengths of the registered hand-off queues now
 */
public record LocalResourceSnapshot(double processCpuCores, double processCpuFraction, double systemLoadAverage,
                                    long gcCount, long gcTimeNanos, double gcTimeFraction, double gcPerSecond,
                                    long heapUsedBytes, long heapMaxBytes, long heapAfterGcBytes,
                                    int liveThreads, long handOffQueueLength) {

    /** @return {@code heapUsedBytes / heapMaxBytes}, 0..1 (0 if the maximum is unknown) */
    public double heapPressure() {
        return heapMaxBytes <= 0 ? 0.0 : Math.min(1.0, (double) heapUsedBytes / heapMaxBytes);
    }

    /** @return {@code heapAfterGcBytes / heapMaxBytes}: the live-set pressure, 0..1 */
    public double heapAfterGcPressure() {
        return heapMaxBytes <= 0 ? 0.0 : Math.min(1.0, (double) heapAfterGcBytes / heapMaxBytes);
    }
}
