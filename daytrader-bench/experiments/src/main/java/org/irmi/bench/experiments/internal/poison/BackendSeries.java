package org.irmi.bench.experiments.internal.poison;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The DayTrader backend's per-second time series ({@code TimeSeriesCsv}), reduced to what the
 * poison experiment plots: per second, the throughput and average execution time of the normal
 * operations (everything but the poison operation), their errors, and the garbage collections.
 */
public final class BackendSeries {

    /** One second of the backend. */
    record Second(long epochSecond, long normalCalls, double normalMeanMillis, long normalErrors, long poisonCalls,
                  long gcCount, long gcMillis) {
    }

    private final TreeMap<Long, Second> seconds = new TreeMap<>();
    private final Map<String, Long> errorsByOperation = new TreeMap<>();

    /**
     * Parses the CSV {@code epochSecond,operation,count,errors,meanMicros,p50Micros,p99Micros,maxMicros,gcCount,gcMillis,heapUsedBytes}.
     *
     * @param poisonOperations operation names that are the poison (not counted as normal)
     */
    public static BackendSeries parse(String csv, Set<String> poisonOperations) {
        BackendSeries series = new BackendSeries();
        Map<Long, long[]> calls = new TreeMap<>();     // normal calls, normal errors, poison calls, gc, gcMillis
        Map<Long, double[]> micros = new TreeMap<>();  // sum of count * meanMicros over normal ops
        for (String line : csv.split("\n")) {
            if (line.isBlank() || line.startsWith("epochSecond")) {
                continue;
            }
            String[] c = line.split(",", -1);
            if (c.length < 11) {
                continue;
            }
            long second = Long.parseLong(c[0].trim());
            String operation = c[1];
            long[] row = calls.computeIfAbsent(second, s -> new long[5]);
            double[] sum = micros.computeIfAbsent(second, s -> new double[1]);
            if (operation.equals("*")) {
                row[3] = parseLong(c[8]);
                row[4] = parseLong(c[9]);
            } else if (poisonOperations.contains(operation)) {
                row[2] += parseLong(c[2]);
            } else {
                long count = parseLong(c[2]);
                long errors = parseLong(c[3]);
                row[0] += count;
                row[1] += errors;
                sum[0] += count * parseDouble(c[4]);
                if (errors > 0) {
                    series.errorsByOperation.merge(operation, errors, Long::sum);
                }
            }
        }
        calls.forEach((second, row) -> series.seconds.put(second, new Second(second, row[0],
                row[0] == 0 ? 0 : micros.get(second)[0] / row[0] / 1000.0, row[1], row[2], row[3], row[4])));
        return series;
    }

    private static long parseLong(String cell) {
        return cell.isBlank() ? 0 : Long.parseLong(cell.trim());
    }

    private static double parseDouble(String cell) {
        return cell.isBlank() ? 0 : Double.parseDouble(cell.trim());
    }

    /** @return the seconds in [fromEpochSecond, toEpochSecond), oldest first */
    List<Second> between(long fromEpochSecond, long toEpochSecond) {
        return new ArrayList<>(seconds.subMap(fromEpochSecond, true, toEpochSecond, false).values());
    }

    /** @return normal calls per second averaged over [from, to), or NaN when no second is there */
    public double throughput(long fromEpochSecond, long toEpochSecond) {
        long span = toEpochSecond - fromEpochSecond;
        if (span <= 0) {
            return Double.NaN;
        }
        long calls = 0;
        for (Second s : between(fromEpochSecond, toEpochSecond)) {
            calls += s.normalCalls();
        }
        return calls / (double) span;
    }

    /** @return normal calls in the seconds [from, to) */
    public long calls(long fromEpochSecond, long toEpochSecond) {
        return between(fromEpochSecond, toEpochSecond).stream().mapToLong(Second::normalCalls).sum();
    }

    /** @return normal calls that failed in the seconds [from, to) */
    public long errors(long fromEpochSecond, long toEpochSecond) {
        return between(fromEpochSecond, toEpochSecond).stream().mapToLong(Second::normalErrors).sum();
    }

    /** @return errors of normal operations by operation name, over the whole series */
    Map<String, Long> errorsByOperation() {
        return errorsByOperation;
    }

    /** @return all seconds, oldest first */
    List<Second> all() {
        return new ArrayList<>(seconds.values());
    }
}
