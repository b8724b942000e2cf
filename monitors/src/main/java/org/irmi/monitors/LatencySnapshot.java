package org.irmi.monitors;

/**
 * Latency distribution of a {@link LatencyWindow} at one instant. All values are nanoseconds, with
 * HdrHistogram's precision (2 significant digits); all are 0 when {@code count == 0}.
 *
 * @param count     number of samples in the window
 * @param minNanos  smallest sample
 * @param meanNanos mean sample
 * @param p50Nanos  median
 * @param p90Nanos  90th percentile
 * @param p99Nanos  99th percentile
 * @param p999Nanos 99.9th percentile
 * @param maxNanos  largest sample
 */
public record LatencySnapshot(long count, long minNanos, double meanNanos, long p50Nanos, long p90Nanos,
                              long p99Nanos, long p999Nanos, long maxNanos) {

    /** No samples. */
    public static final LatencySnapshot EMPTY = new LatencySnapshot(0, 0, 0, 0, 0, 0, 0, 0);
}
