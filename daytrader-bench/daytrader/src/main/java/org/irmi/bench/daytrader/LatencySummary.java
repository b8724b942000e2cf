package org.irmi.bench.daytrader;

import java.io.Serializable;

/**
 * Execution times of every call of one operation (or {@code *} for all) since the recorder's last
 * reset, in microseconds, and the seconds that span covered.
 */
public final class LatencySummary implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String operation;
    private final long count;
    private final long errors;
    private final double spanSeconds;
    private final double meanMicros;
    private final long p50Micros;
    private final long p90Micros;
    private final long p99Micros;
    private final long maxMicros;

    public LatencySummary(String operation, long count, long errors, double spanSeconds, double meanMicros,
                          long p50Micros, long p90Micros, long p99Micros, long maxMicros) {
        this.operation = operation;
        this.count = count;
        this.errors = errors;
        this.spanSeconds = spanSeconds;
        this.meanMicros = meanMicros;
        this.p50Micros = p50Micros;
        this.p90Micros = p90Micros;
        this.p99Micros = p99Micros;
        this.maxMicros = maxMicros;
    }

    public String getOperation() { return operation; }
    public long getCount() { return count; }
    public long getErrors() { return errors; }
    public double getSpanSeconds() { return spanSeconds; }
    public double getMeanMicros() { return meanMicros; }
    public long getP50Micros() { return p50Micros; }
    public long getP90Micros() { return p90Micros; }
    public long getP99Micros() { return p99Micros; }
    public long getMaxMicros() { return maxMicros; }

    /** Completed calls per second over the span. */
    public double getThroughputPerSecond() {
        return spanSeconds <= 0 ? 0 : count / spanSeconds;
    }

    private static final java.util.regex.Pattern LINE = java.util.regex.Pattern.compile(
            "(\\S+) n=(\\d+) err=(\\d+) ([\\d.]+)/s mean=([\\d.]+)us p50=(\\d+)us p99=(\\d+)us max=(\\d+)us");

    /**
     * Reads back one line of {@link #toString()} (the web tier's {@code summary} page); the span
     * is recomputed from count and rate, and p90 is not part of the line (set to -1).
     *
     * @throws IllegalArgumentException when the line is not such a summary
     */
    public static LatencySummary parse(String line) {
        java.util.regex.Matcher m = LINE.matcher(line.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a latency summary line: '" + line + "'");
        }
        long n = Long.parseLong(m.group(2));
        double rate = Double.parseDouble(m.group(4));
        return new LatencySummary(m.group(1), n, Long.parseLong(m.group(3)), rate > 0 ? n / rate : 0,
                Double.parseDouble(m.group(5)), Long.parseLong(m.group(6)), -1, Long.parseLong(m.group(7)),
                Long.parseLong(m.group(8)));
    }

    @Override
    public String toString() {
        return String.format("%s n=%d err=%d %.1f/s mean=%.0fus p50=%dus p99=%dus max=%dus", operation, count,
                errors, getThroughputPerSecond(), meanMicros, p50Micros, p99Micros, maxMicros);
    }
}
