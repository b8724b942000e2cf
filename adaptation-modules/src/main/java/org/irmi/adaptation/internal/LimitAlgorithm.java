package org.irmi.adaptation.internal;

/**
 * A pure concurrency-limit algorithm: one sample in, the new limit out. Time arrives as data.
 * THREAD SAFETY: not thread-safe; the adaptive-limit module serialises samples.
 */
public interface LimitAlgorithm {
    /** @return the current limit (at least 1). */
    int limit();

    /**
     * @param rttNanos  the sample's round trip (ignored on a drop)
     * @param inFlight  calls in flight when the sample was taken, including this one
     * @param didDrop   whether the call failed for overload
     * @return the new limit
     */
    int onSample(long rttNanos, int inFlight, boolean didDrop);
}
