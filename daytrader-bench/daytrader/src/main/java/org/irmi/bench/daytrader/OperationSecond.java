package org.irmi.bench.daytrader;

import java.io.Serializable;

/**
 * What one operation did in one wall-clock second: calls completed, calls that failed, and the
 * execution time in microseconds (mean, p50, p99, max) from an HdrHistogram interval histogram.
 * Operations are the {@link TradeServices} method names on the backend, and page names on the web tier.
 */
public final class OperationSecond implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String operation;
    private final long count;
    private final long errors;
    private final double meanMicros;
    private final long p50Micros;
    private final long p99Micros;
    private final long maxMicros;

    public OperationSecond(String operation, long count, long errors, double meanMicros, long p50Micros,
                           long p99Micros, long maxMicros) {
        this.operation = operation;
        this.count = count;
        this.errors = errors;
        this.meanMicros = meanMicros;
        this.p50Micros = p50Micros;
        this.p99Micros = p99Micros;
        this.maxMicros = maxMicros;
    }

    public String getOperation() { return operation; }
    public long getCount() { return count; }
    public long getErrors() { return errors; }
    public double getMeanMicros() { return meanMicros; }
    public long getP50Micros() { return p50Micros; }
    public long getP99Micros() { return p99Micros; }
    public long getMaxMicros() { return maxMicros; }

    @Override
    public String toString() {
        return operation + "[n=" + count + " err=" + errors + " p99=" + p99Micros + "us]";
    }
}
