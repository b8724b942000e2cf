package org.irmi.isolation;

/**
 * This node's resource use over the monitors' window, as the slow-client point reads it.
 *
 * @param cpu          process CPU use, 0..1 of all cores (NaN when unknown)
 * @param heapPressure heap used after the last GC divided by the maximum heap, 0..1 (NaN when unknown)
 * @param gcPerSecond  garbage collections per second over the window (NaN when unknown)
 */
public record LocalLoad(double cpu, double heapPressure, double gcPerSecond) {
    /** Nothing known. */
    public static final LocalLoad UNKNOWN = new LocalLoad(Double.NaN, Double.NaN, Double.NaN);
}
