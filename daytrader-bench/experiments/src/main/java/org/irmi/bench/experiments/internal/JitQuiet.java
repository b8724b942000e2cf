package org.irmi.bench.experiments.internal;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Tells when the JIT compilers of the processes under test have gone quiet: over the last
 * {@code windowMillis}, no process's compilers spent more than {@code maxCompileMillis} compiling.
 *
 * <p>Used by the crosstalk experiment's warm-up and by the normal day's ({@code JitWarmUp}).
 *
 * <p>Why the crosstalk experiment needs it: a request of 1-8 MB takes 0.5-8 ms to read, and the
 * server's compilers run on the server's one CPU. Profiled on a 2-core machine with a fixed 2 s
 * warm-up, the server's C2 compiler thread took 40% of that CPU while the requests were measured
 * with 8 secondary streams (and its reader 25%), and an 8 MB request read in 10 ms that takes 7 ms
 * once the compiler is done. A fixed warm-up long enough for the slowest machine wastes time on a
 * fast one; this waits for what the measurement needs.
 *
 * <p>Fed by samples of each process's cumulative compile milliseconds (the crosstalk experiment's
 * {@code CompilationMXBean.getTotalCompilationTime}, the normal day's CPU of the compiler threads,
 * {@link ProcessCpu#compilerNanos}); a process that does not report (-1) counts as quiet.
 */
public final class JitQuiet {

    private record Sample(long atMillis, long[] jitMillis) {
    }

    private final long windowMillis;
    private final long maxCompileMillis;
    private final Deque<Sample> samples = new ArrayDeque<>();

    /**
     * @param windowMillis     how far back the growth is read
     * @param maxCompileMillis the most compile time any one process may have spent in that window
     */
    public JitQuiet(long windowMillis, long maxCompileMillis) {
        if (windowMillis <= 0 || maxCompileMillis < 0) {
            throw new IllegalArgumentException("windowMillis must be > 0 and maxCompileMillis >= 0");
        }
        this.windowMillis = windowMillis;
        this.maxCompileMillis = maxCompileMillis;
    }

    /**
     * Adds one sample.
     *
     * @param atMillis  when it was taken, on any monotonic millisecond clock
     * @param jitMillis each process's cumulative compile milliseconds, in the same order every time
     */
    public void sample(long atMillis, long... jitMillis) {
        if (!samples.isEmpty() && samples.peekLast().jitMillis().length != jitMillis.length) {
            throw new IllegalArgumentException("every sample must cover the same processes");
        }
        samples.addLast(new Sample(atMillis, jitMillis.clone()));
        // keep the newest sample that is at least a window old: the growth is read from there
        while (samples.size() > 1) {
            Sample first = samples.pollFirst();
            if (atMillis - samples.peekFirst().atMillis() < windowMillis) {
                samples.addFirst(first);
                break;
            }
        }
    }

    /** @return true when the samples span a whole window and no process compiled more than allowed in it */
    public boolean quiet() {
        if (samples.size() < 2 || samples.peekLast().atMillis() - samples.peekFirst().atMillis() < windowMillis) {
            return false;
        }
        long[] first = samples.peekFirst().jitMillis();
        long[] last = samples.peekLast().jitMillis();
        for (int i = 0; i < first.length; i++) {
            if (first[i] >= 0 && last[i] >= 0 && last[i] - first[i] > maxCompileMillis) {
                return false;
            }
        }
        return true;
    }

    /** @return the most compile milliseconds any one process spent over the samples kept, or 0 */
    public long largestGrowth() {
        if (samples.size() < 2) {
            return 0;
        }
        long[] first = samples.peekFirst().jitMillis();
        long[] last = samples.peekLast().jitMillis();
        long most = 0;
        for (int i = 0; i < first.length; i++) {
            if (first[i] >= 0 && last[i] >= 0) {
                most = Math.max(most, last[i] - first[i]);
            }
        }
        return most;
    }
}
