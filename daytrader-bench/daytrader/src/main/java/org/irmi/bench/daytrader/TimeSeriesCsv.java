package org.irmi.bench.daytrader;

import java.util.List;
import java.util.Locale;

/**
 * The time series as CSV, one row per (second, operation) plus a row with operation {@code *}
 * per second carrying the totals and the GC figures (so idle seconds still appear):
 * <pre>epochSecond,operation,count,errors,meanMicros,p50Micros,p99Micros,maxMicros,gcCount,gcMillis,heapUsedBytes</pre>
 */
public final class TimeSeriesCsv {
    public static final String HEADER =
            "epochSecond,operation,count,errors,meanMicros,p50Micros,p99Micros,maxMicros,gcCount,gcMillis,heapUsedBytes";

    private TimeSeriesCsv() {
    }

    public static String format(List<SecondSample> samples) {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        for (SecondSample s : samples) {
            long errors = 0;
            for (OperationSecond o : s.getOperations()) {
                errors += o.getErrors();
                sb.append(String.format(Locale.ROOT, "%d,%s,%d,%d,%.1f,%d,%d,%d,,,%n", s.getEpochSecond(), o.getOperation(),
                        o.getCount(), o.getErrors(), o.getMeanMicros(), o.getP50Micros(), o.getP99Micros(), o.getMaxMicros()));
            }
            sb.append(String.format(Locale.ROOT, "%d,*,%d,%d,,,,,%d,%d,%d%n", s.getEpochSecond(), s.getTotalCount(), errors,
                    s.getGcCount(), s.getGcMillis(), s.getHeapUsedBytes()));
        }
        return sb.toString();
    }
}
