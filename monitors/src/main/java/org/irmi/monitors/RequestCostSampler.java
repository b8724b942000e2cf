package org.irmi.monitors;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The one per-request cost sampler of I-RMI: reads a request's CPU time and allocated bytes on its
 * dispatch thread through a {@link ThreadCostProbe}, and decides which requests have their CPU
 * time read. Reading a thread's CPU clock
 * is a system call (about 1 us on a virtual machine, twice per request), so busy operations are
 * sampled: an operation's request is measured when it is the {@code every}-th of that operation,
 * or when no request of that operation was measured for {@link #QUIET_NANOS}. So every request of
 * an operation that arrives less often than once a millisecond is measured (a rare, expensive
 * request is never missed), and a busy operation is measured often enough for its mean.
 *
 * <p>Usage on a dispatch thread: {@code cpu0 = s.measure(op, now) ? s.cpuNanos() : -1; alloc0 =
 * s.allocatedBytes();} before the servant runs, the same reads after it, and the differences go to
 * {@link RequestCostMonitor#record}.
 *
 * <p>THREADING: any dispatch thread. The per-operation counters are updated without locks; a lost
 * update only shifts which request is sampled.
 */
public final class RequestCostSampler {

    /** An operation quiet for this long has its next request measured. */
    public static final long QUIET_NANOS = 1_000_000;
    /** Operations tracked one by one; past this, the rest share one counter. */
    private static final int MAX_OPERATIONS = 4096;

    private static final class Counter {
        long seen;
        long lastMeasuredNanos = Long.MIN_VALUE / 2;
    }

    private final int every;
    private final ThreadCostProbe probe;
    private final ConcurrentHashMap<String, Counter> counters = new ConcurrentHashMap<>();
    private final Counter overflow = new Counter();

    /**
     * @param every measure one request in {@code every} of a busy operation; 1 measures every request
     * @param probe reads the calling thread's CPU time and allocated bytes
     */
    public RequestCostSampler(int every, ThreadCostProbe probe) {
        if (every < 1) {
            throw new IllegalArgumentException("every must be at least 1, got " + every);
        }
        this.every = every;
        this.probe = java.util.Objects.requireNonNull(probe, "probe");
    }

    /** A sampler on this JVM's threads ({@link ThreadCostProbe#jvm()}). */
    public static RequestCostSampler jvm(int every) {
        return new RequestCostSampler(every, ThreadCostProbe.jvm());
    }

    /** @return one request in this many of a busy operation has its CPU time read */
    public int every() {
        return every;
    }

    /** @return the calling thread's CPU time so far, nanoseconds, or -1 if unsupported. CALLING THREAD. */
    public long cpuNanos() {
        return probe.currentThreadCpuNanos();
    }

    /** @return bytes the calling thread allocated so far, or -1 if unsupported. CALLING THREAD. */
    public long allocatedBytes() {
        return probe.currentThreadAllocatedBytes();
    }

    /** Whether the request of {@code operation} starting at {@code nowNanos} is to have its CPU time read. */
    public boolean measure(String operation, long nowNanos) {
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
