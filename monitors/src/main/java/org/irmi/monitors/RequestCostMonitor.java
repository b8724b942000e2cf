package org.irmi.monitors;

import java.util.Map;

import io.micrometer.core.instrument.binder.MeterBinder;
import org.irmi.monitors.internal.WindowedRequestCostMonitor;
import org.irmi.sla.WindowConfig;

/**
 * Per-request cost: CPU time and bytes allocated by each request, measured on its dispatch thread,
 * aggregated per operation, per stream ({@link StreamKey}) and in total over a sliding window.
 *
 * <p>Usage on a dispatch worker (one sampler per worker thread, reused for every request):
 * <pre>{@code
 *   CostSampler s = monitor.newSampler();      // once per worker thread
 *   s.begin();                                 // before the servant runs
 *   servant.invoke(...);
 *   s.end(objectKey, operation, client);       // after; s.lastCpuNanos() is this request's CPU
 * }</pre>
 *
 * <p>Sampling ("pay as you go"): reading a thread's CPU time costs about a microsecond (see
 * docs/monitors.md), too much for every request of a fast service. With {@code sampleEvery = N} a
 * sampler measures one request in N, and every recorded request stands for N: counts and per-second
 * rates in the snapshots are multiplied by N, means and maxima are those of the measured requests.
 * N = 1 (the default) measures every request.
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
    /** Default sampling: measure every request. */
    int DEFAULT_SAMPLE_EVERY = 1;
    /** Operation name under which requests are counted once the operation table is full. */
    String OVERFLOW_OPERATION = "*";

    /**
     * Accounts one measured request (standing for {@link #sampleEvery()} requests).
     *
     * @param objectKey      target object
     * @param operation      operation name
     * @param client         client identity
     * @param cpuNanos       CPU time of the request, nanoseconds (negative: not measured; the request
     *                       counts, and the CPU mean and rate come from the measured requests)
     * @param allocatedBytes bytes the request allocated (negative: unknown, recorded as 0)
     */
    void record(String objectKey, String operation, String client, long cpuNanos, long allocatedBytes);

    /** @return a new sampler; THREAD-CONFINED, keep one per dispatch thread */
    CostSampler newSampler();

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

    /** @return N: one request in N is measured, and each recorded request stands for N */
    int sampleEvery();

    /**
     * Gauges and counters {@code irmi.cost.*}: totals without tags, and per operation with tag
     * {@code operation} (bounded by {@link #DEFAULT_MAX_OPERATIONS}); never per stream or client.
     *
     * @return the binder
     */
    MeterBinder metrics();

    /**
     * Measures the calling thread between {@link #begin()} and {@link #end}. THREAD-CONFINED: one
     * sampler per dispatch thread.
     */
    interface CostSampler {
        /**
         * Reads the thread's CPU time and allocated bytes now, if this request is one of the sampled
         * ones (one in {@link RequestCostMonitor#sampleEvery()}, counted per sampler).
         *
         * @return true if this request is measured
         */
        boolean begin();

        /**
         * Reads them again and records the difference; does nothing if {@link #begin()} returned false.
         *
         * @param objectKey target object
         * @param operation operation name
         * @param client    client identity
         */
        void end(String objectKey, String operation, String client);

        /** @return CPU nanoseconds of the last measured request (-1 if unknown) */
        long lastCpuNanos();

        /** @return bytes allocated by the last measured request (-1 if unknown) */
        long lastAllocatedBytes();
    }

    /**
     * A monitor measuring this JVM's threads.
     *
     * @param config window shape
     * @param clock  time source
     * @return the monitor, with default bounds
     */
    static RequestCostMonitor of(WindowConfig config, Clock clock) {
        return of(config, clock, ThreadCostProbe.jvm(), DEFAULT_MAX_STREAMS, DEFAULT_MAX_OPERATIONS);
    }

    /**
     * A monitor measuring one request in {@code sampleEvery} on this JVM's threads.
     *
     * @param config      window shape
     * @param clock       time source
     * @param sampleEvery N &gt;= 1
     * @return the monitor, with default bounds
     */
    static RequestCostMonitor sampled(WindowConfig config, Clock clock, int sampleEvery) {
        return new WindowedRequestCostMonitor(config, clock, ThreadCostProbe.jvm(), DEFAULT_MAX_STREAMS, DEFAULT_MAX_OPERATIONS, sampleEvery);
    }

    /**
     * @param config        window shape
     * @param clock         time source
     * @param probe         per-thread cost readings
     * @param maxStreams    bound on tracked streams (at least 1; the overflow stream counts)
     * @param maxOperations bound on tracked operations (at least 1; the overflow operation counts)
     * @return the monitor
     */
    static RequestCostMonitor of(WindowConfig config, Clock clock, ThreadCostProbe probe, int maxStreams, int maxOperations) {
        return new WindowedRequestCostMonitor(config, clock, probe, maxStreams, maxOperations, DEFAULT_SAMPLE_EVERY);
    }
}
