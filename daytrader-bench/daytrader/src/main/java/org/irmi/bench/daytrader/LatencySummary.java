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

    @Override
    public String toString() {
        return String.format("%s n=%d err=%d %.1f/s mean=%.0fus p50=%dus p99=%dus max=%dus", operation, count,
                errors, getThroughputPerSecond(), meanMicros, p50Micros, p99Micros, maxMicros);
    }
}
