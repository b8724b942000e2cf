package org.irmi.bench.experiments.internal.normalday;

import java.util.function.BooleanSupplier;

import org.irmi.bench.experiments.internal.ProcessCpu;
import org.irmi.bench.experiments.internal.ProgressBar;

/**
 * The end of a trial's warm-up: the backend's JIT has settled. After the fixed warm-up, the trial
 * goes on watching the backend's compiler threads in spans of {@value #SPAN_MILLIS} ms, and
 * measures once {@value #QUIET_SPANS} spans in a row used at most {@value #QUIET_MILLIS_PER_SECOND}
 * ms of CPU per second (1% of a core), or once {@code capMillis} have passed.
 *
 * <p>Why: on the paper's load (about 155 calls/s on 0.4 of a core) a backend's JIT goes on
 * compiling for minutes; a compilation takes the quota's time from the requests, and the page p99
 * of a window follows whether one ran in it. I-RMI's backend runs more code than plain JacORB's
 * and its JIT settles later. The same rule holds for every variant, and each trial reports how
 * long it waited and what its JIT used in the measured window.
 */
final class JitWarmUp {

    static final long SPAN_MILLIS = 10_000;
    static final long QUIET_MILLIS_PER_SECOND = 10;
    static final int QUIET_SPANS = 2;

    /**
     * @param extraMillis how long the trial waited after the fixed warm-up
     * @param settled     false when the cap ran out first (or the compiler threads could not be read)
     */
    record Outcome(long extraMillis, boolean settled) {
    }

    private JitWarmUp() {
    }

    /**
     * Waits, showing progress, until the JIT of process {@code pid} has settled or {@code capMillis} have passed.
     *
     * @param stop true ends the wait early (a tier died, the load ended)
     */
    static Outcome await(long pid, long capMillis, ProgressBar bar, String label, BooleanSupplier stop)
            throws InterruptedException {
        long start = System.nanoTime();
        int quietSpans = 0;
        while (capMillis > 0 && elapsedMillis(start) + SPAN_MILLIS <= capMillis) {
            long before = ProcessCpu.compilerNanos(pid);
            if (before < 0 || !bar.during(label + " JIT settling", SPAN_MILLIS, stop)) {
                return new Outcome(elapsedMillis(start), false);
            }
            long after = ProcessCpu.compilerNanos(pid);
            if (after < 0) {
                return new Outcome(elapsedMillis(start), false);
            }
            double millisPerSecond = (after - before) / 1e6 / (SPAN_MILLIS / 1000.0);
            quietSpans = millisPerSecond <= QUIET_MILLIS_PER_SECOND ? quietSpans + 1 : 0;
            if (quietSpans >= QUIET_SPANS) {
                return new Outcome(elapsedMillis(start), true);
            }
        }
        return new Outcome(elapsedMillis(start), false);
    }

    private static long elapsedMillis(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
