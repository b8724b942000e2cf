package org.irmi.monitors;

import java.util.Map;

import io.micrometer.core.instrument.binder.MeterBinder;
import org.irmi.monitors.internal.WindowedRequestCostMonitor;
import org.irmi.sla.WindowConfig;

/**
 * Per-request cost: CPU time and bytes allocated by each request, measured on its dispatch thread,
 * aggregated per operation, per stream ({@link StreamKey}) and in total over a sliding window.
 *
 * <p>The costs are measured by the {@link RequestCostSampler} on the dispatch thread and recorded
 * here. Every request is recorded; one whose CPU time was not read (sampled out) counts, and the CPU
 * mean and rate come from the measured ones.
 *
 * <p>Stream cardinality is bounded by {@link #maxStreams()}: when the table is full, new streams are
 * accounted in {@link StreamKey#OVERFLOW}; streams idle for a whole window are evicted when
 * {@link #streams()} is read, making room again. Operations are bounded the same way (overflow
 * operation {@code "*"}).
 *
 * <p>THREAD-SAFE. {@link #record} is LOCK-FREE apart from the first request of a new stream.
 */
public interface RequestCostMonitor {

    /** Default bound on tracked streams. */
    int DEFAULT_MAX_STREAMS = 1_024;
    /** Default bound on tracked operations. */
    int DEFAULT_MAX_OPERATIONS = 256;
    /** Operation name under which requests are counted once the operation table is full. */
    String OVERFLOW_OPERATION = "*";

    /**
     * Accounts one request.
     *
     * @param objectKey      target object
     * @param operation      operation name
     * @param client         client identity
     * @param cpuNanos       CPU time of the request, nanoseconds (negative: not measured; the request
     *                       counts, and the CPU mean and rate come from the measured requests)
     * @param allocatedBytes bytes the request allocated (negative: unknown, recorded as 0)
     */
    void record(String objectKey, String operation, String client, long cpuNanos, long allocatedBytes);

    /** @return cost of all requests in the window */
    CostSnapshot total();

    /**
     * @param operation an operation name
     * @return its cost in the window ({@link CostSnapshot#EMPTY} if never seen)
     */
    CostSnapshot operation(String operation);

    /** @return cost per operation now */
    Map<String, CostSnapshot> operations();

    /**
     * @param stream a stream
     * @return its cost in the window ({@link CostSnapshot#EMPTY} if not tracked)
     */
    CostSnapshot stream(StreamKey stream);

    /** @return cost per tracked stream now (evicts streams idle for a whole window first) */
    Map<StreamKey, CostSnapshot> streams();

    /** @return the bound on tracked streams, including {@link StreamKey#OVERFLOW} */
    int maxStreams();


    /**
     * Gauges and counters {@code irmi.cost.*}: totals without tags, and per operation with tag
     * {@code operation} (bounded by {@link #DEFAULT_MAX_OPERATIONS}); never per stream or client.
     *
     * @return the binder
     */
    MeterBinder metrics();

    /**
     * A monitor with default bounds.
     *
     * @param config window shape
     * @param clock  time source
     * @return the monitor, with default bounds
     */
    static RequestCostMonitor of(WindowConfig config, Clock clock) {
        return of(config, clock, DEFAULT_MAX_STREAMS, DEFAULT_MAX_OPERATIONS);
    }

    /**
     * @param config        window shape
     * @param clock         time source
     * @param maxStreams    bound on tracked streams (at least 1; the overflow stream counts)
     * @param maxOperations bound on tracked operations (at least 1; the overflow operation counts)
     * @return the monitor
     */
    static RequestCostMonitor of(WindowConfig config, Clock clock, int maxStreams, int maxOperations) {
        return new WindowedRequestCostMonitor(config, clock, maxStreams, maxOperations);
    }
}
