package org.irmi.isolation.internal;

/**
 * Requests completed and what they cost, for one signature over some period.
 *
 * @param requests          completed requests
 * @param cpuNanos          CPU time of their dispatch threads, summed
 * @param allocatedBytes    bytes they allocated, summed
 * @param maxCpuNanos       the most CPU time one of them took (0: not known)
 * @param maxAllocatedBytes the most bytes one of them allocated (0: not known)
 */
public record CostTotals(long requests, long cpuNanos, long allocatedBytes, long maxCpuNanos, long maxAllocatedBytes) {
    /** Nothing. */
    public static final CostTotals ZERO = new CostTotals(0, 0, 0);

    /** Totals without their maxima. */
    public CostTotals(long requests, long cpuNanos, long allocatedBytes) {
        this(requests, cpuNanos, allocatedBytes, 0, 0);
    }

    /** @return the sum of this and another total (the larger maxima). */
    public CostTotals plus(CostTotals o) {
        return new CostTotals(requests + o.requests, cpuNanos + o.cpuNanos, allocatedBytes + o.allocatedBytes,
                Math.max(maxCpuNanos, o.maxCpuNanos), Math.max(maxAllocatedBytes, o.maxAllocatedBytes));
    }

    /** @return this total minus another, without maxima (a difference has none of its own). */
    public CostTotals minus(CostTotals o) {
        return new CostTotals(requests - o.requests, cpuNanos - o.cpuNanos,
                allocatedBytes - o.allocatedBytes);
    }

    /** @return CPU nanoseconds per request, 0 when no request. */
    public double cpuPerRequest() {
        return requests == 0 ? 0 : (double) cpuNanos / requests;
    }

    /** @return allocated bytes per request, 0 when no request. */
    public double allocatedPerRequest() {
        return requests == 0 ? 0 : (double) allocatedBytes / requests;
    }
}
