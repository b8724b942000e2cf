package org.irmi.bench.echo.internal;

import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The medians of the trials of one variant in one cell (payload, connections).
 *
 * @param variant          the variant's name
 * @param payloadBytes     request and reply size
 * @param connections      client connections asked for
 * @param trials           trials that completed
 * @param failures         trials that failed, and the last failure's message (or null)
 * @param callsPerSecond   median
 * @param p50Micros        median of the trials' medians
 * @param p99Micros        median of the trials' 99th percentiles
 * @param serverThreads    median of the trials' peak server thread counts
 * @param serverRssKb      median of the trials' peak server resident sets
 * @param connectionsSeen  fewest established server connections any trial reached
 * @param errors           failed calls (exceptions, wrong echoes, callers left waiting) summed over the trials
 * @param rampMillis       median time to open every connection
 * @param readerThreads    median of the trials' peak connection reader threads (-1 if not seen)
 * @param heapAfterGcKb    median of the trials' peak heap held after a collection, KiB (-1 if not known)
 * @param callsPerSecondMin the slowest trial's calls/s (how noisy the cell was)
 * @param callsPerSecondMax the fastest trial's calls/s
 * @param serverCpuMicrosPerCall median of the trials' server CPU time per measured call, us (-1 if not watched)
 */
public record CellSummary(String variant, int payloadBytes, int connections, int trials, int failures,
                          String lastFailure, double callsPerSecond, double p50Micros, double p99Micros,
                          double serverThreads, double serverRssKb, int connectionsSeen, long errors,
                          double rampMillis, double readerThreads, double heapAfterGcKb,
                          double callsPerSecondMin, double callsPerSecondMax, double serverCpuMicrosPerCall) {

    /** Summarises {@code done} (completed trials) and {@code failed} failure messages. */
    public static CellSummary of(String variant, int payloadBytes, int connections, List<LoadRun.Trial> done,
                                 List<String> failed) {
        String lastFailure = failed.isEmpty() ? null : failed.get(failed.size() - 1);
        if (done.isEmpty()) {
            return new CellSummary(variant, payloadBytes, connections, 0, failed.size(), lastFailure,
                    Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, -1);
        }
        return new CellSummary(variant, payloadBytes, connections, done.size(), failed.size(), lastFailure,
                median(done, t -> t.result().callsPerSecond()),
                median(done, t -> t.result().p50Micros()),
                median(done, t -> t.result().p99Micros()),
                median(done, t -> t.serverThreads()),
                median(done, t -> t.serverRssKb()),
                done.stream().mapToInt(t -> Math.min(t.serverConnections(), t.result().connected())).min().orElse(0),
                done.stream().mapToLong(t -> t.result().failedCalls()).sum(),
                median(done, t -> t.result().rampMillis()),
                median(done, t -> t.readerThreads()),
                median(done, t -> t.heapAfterGcKb()),
                done.stream().mapToDouble(t -> t.result().callsPerSecond()).min().orElse(Double.NaN),
                done.stream().mapToDouble(t -> t.result().callsPerSecond()).max().orElse(Double.NaN),
                cpuMedian(done));
    }

    /** The median server CPU us per call over the trials that watched it; -1 when none did. */
    private static double cpuMedian(List<LoadRun.Trial> done) {
        List<LoadRun.Trial> watched = done.stream().filter(t -> t.serverCpuMicrosPerCall() >= 0).toList();
        return watched.isEmpty() ? -1 : median(watched, LoadRun.Trial::serverCpuMicrosPerCall);
    }

    /** True when at least one trial completed. */
    public boolean measured() {
        return trials > 0;
    }

    /** The median of {@code f} over {@code items}: the middle value, or the mean of the two middle ones. */
    public static <T> double median(List<T> items, ToDoubleFunction<T> f) {
        double[] v = items.stream().mapToDouble(f).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        int mid = v.length / 2;
        return v.length % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
    }

    /** The median of plain values. */
    public static double median(double... values) {
        double[] v = values.clone();
        Arrays.sort(v);
        if (v.length == 0) {
            return Double.NaN;
        }
        int mid = v.length / 2;
        return v.length % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
    }
}
