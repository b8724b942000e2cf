package org.irmi.isolation.internal;

/**
 * Requests completed and what they cost, for one signature over some period.
 *
 * @param requests       completed requests
 * @param cpuNanos       CPU time of their dispatch threads, summed
 * @param allocatedBytes bytes they allocated, summed
 */
public record CostTotals(long requests, long cpuNanos, long allocatedBytes) {
    /** Nothing. */
    public static final CostTotals ZERO = new CostTotals(0, 0, 0);

    /** @return the sum of this and another total. */
    public CostTotals plus(CostTotals o) {
        return new CostTotals(requests + o.requests, cpuNanos + o.cpuNanos,
                allocatedBytes + o.allocatedBytes);
    }

    /** @return this total minus another. */
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
