package org.irmi.monitors;

import java.util.Map;

import io.micrometer.core.instrument.binder.MeterBinder;
import org.irmi.monitors.internal.WindowedOperationLatencyMonitor;
import org.irmi.sla.WindowConfig;

/**
 * Latency per operation over a sliding window (one {@link LatencyWindow} per operation, plus a total):
 * what an SLA's per-operation objectives ({@code p99Latency}) are checked against.
 *
 * <p>Bounded: at most {@code maxOperations} operations are tracked, the overflow operation
 * {@link #OVERFLOW_OPERATION} included; later operations are accounted there.
 *
 * <p>THREAD-SAFE. {@link #record} is WAIT-FREE for a known operation (a map lookup and two HdrHistogram
 * recordings); snapshots merge histograms (about 10 µs each, see docs/monitors.md), so the metric
 * gauges reuse one snapshot per operation for {@link #GAUGE_SNAPSHOT_NANOS}.
 */
public interface OperationLatencyMonitor {
    /**
     * The {@code operation} tag value of the meters over all operations (the total). Every meter of
     * a name carries the same tag keys, which Prometheus requires; parentheses cannot occur in an
     * IDL operation name, so it never collides with a real operation.
     */
    String ALL_OPERATIONS = "(all)";


    /** Default bound on tracked operations. */
    int DEFAULT_MAX_OPERATIONS = 256;
    /** Operation name under which requests are counted once the table is full. */
    String OVERFLOW_OPERATION = "*";
    /** How long the metric gauges reuse an operation's snapshot: 100 ms. */
    long GAUGE_SNAPSHOT_NANOS = 100_000_000L;

    /**
     * Records one request's latency.
     *
     * @param operation the operation
     * @param nanos     its latency, nanoseconds
     */
    void record(String operation, long nanos);

    /**
     * @param operation an operation
     * @return its latency distribution in the window ({@link LatencySnapshot#EMPTY} if never seen)
     */
    LatencySnapshot snapshot(String operation);

    /** @return the distribution of all requests in the window */
    LatencySnapshot total();

    /** @return the distribution per tracked operation */
    Map<String, LatencySnapshot> snapshots();

    /**
     * Gauges {@code irmi.latency.*}: the total without tags, and per operation with tag
     * {@code operation} (bounded by the table).
     *
     * @return the binder
     */
    MeterBinder metrics();

    /**
     * @param config window shape
     * @param clock  time source
     * @return a monitor tracking up to {@link #DEFAULT_MAX_OPERATIONS} operations
     */
    static OperationLatencyMonitor of(WindowConfig config, Clock clock) {
        return of(config, clock, DEFAULT_MAX_OPERATIONS);
    }

    /**
     * @param config        window shape
     * @param clock         time source
     * @param maxOperations bound on tracked operations, overflow included (&gt;= 1)
     * @return the monitor
     */
    static OperationLatencyMonitor of(WindowConfig config, Clock clock, int maxOperations) {
        return new WindowedOperationLatencyMonitor(config, clock, maxOperations);
    }
}
