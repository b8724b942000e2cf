package org.irmi.orb.internal;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Decides which requests have their dispatch thread's CPU time read. Reading a thread's CPU clock
 * is a system call (about 1 us on a virtual machine, twice per request), so busy operations are
 * sampled: an operation's request is measured when it is the {@code every}-th of that operation,
 * or when no request of that operation was measured for {@link #QUIET_NANOS}. So every request of
 * an operation that arrives less often than once a millisecond is measured (a rare, expensive
 * request is never missed), and a busy operation is measured often enough for its mean.
 *
 * <p>THREADING: any dispatch thread. The per-operation counters are updated without locks; a lost
 * update only shifts which request is sampled.
 */
final class CpuSampler {

    /** An operation quiet for this long has its next request measured. */
    static final long QUIET_NANOS = 1_000_000;
    /** Operations tracked one by one; past this, the rest share one counter. */
    private static final int MAX_OPERATIONS = 4096;

    private static final class Counter {
        long seen;
        long lastMeasuredNanos = Long.MIN_VALUE / 2;
    }

    private final int every;
    private final ConcurrentHashMap<String, Counter> counters = new ConcurrentHashMap<>();
    private final Counter overflow = new Counter();

    /** @param every measure one request in {@code every} of a busy operation; 1 measures every request */
    CpuSampler(int every) {
        if (every < 1) {
            throw new IllegalArgumentException("every must be at least 1, got " + every);
        }
        this.every = every;
    }

    int every() {
        return every;
    }

    /** Whether the request of {@code operation} starting at {@code nowNanos} is to be measured. */
    boolean measure(String operation, long nowNanos) {
        if (every == 1) {
            return true;
        }
        Counter c = counters.get(operation);
        if (c == null) {
            c = counters.size() < MAX_OPERATIONS ? counters.computeIfAbsent(operation, k -> new Counter()) : overflow;
        }
        long n = c.seen++;
        if (n % every == 0 || nowNanos - c.lastMeasuredNanos >= QUIET_NANOS) {
            c.lastMeasuredNanos = nowNanos;
            return true;
        }
        return false;
    }
}
