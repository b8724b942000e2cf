package org.irmi.bench.experiments.internal.normalday;

import java.util.function.BooleanSupplier;

import org.irmi.bench.experiments.internal.JitQuiet;
import org.irmi.bench.experiments.internal.ProcessCpu;
import org.irmi.bench.experiments.internal.ProgressBar;

/**
 * The end of a trial's warm-up: the backend's JIT has settled. After the fixed warm-up, the trial
 * samples the CPU of the backend's compiler threads every {@value #SPAN_MILLIS} ms and measures
 * once they used at most {@value #QUIET_MILLIS_PER_SECOND} ms per second (1% of a core) over the
 * last {@value #WINDOW_MILLIS} ms ({@link JitQuiet}), or once {@code capMillis} have passed.
 *
 * <p>Why: on the paper's load (about 155 calls/s on 0.4 of a core) a backend's JIT goes on
 * compiling for minutes; a compilation takes the quota's time from the requests, and the page p99
 * of a window follows whether one ran in it. I-RMI's backend runs more code than plain JacORB's
 * and its JIT settles later. The same rule holds for every variant, and each trial reports how
 * long it waited and what its JIT used in the measured window.
 */
final class JitWarmUp {

    static final long SPAN_MILLIS = 10_000;
    static final long WINDOW_MILLIS = 20_000;
    static final long QUIET_MILLIS_PER_SECOND = 10;

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
        JitQuiet gate = new JitQuiet(WINDOW_MILLIS, QUIET_MILLIS_PER_SECOND * WINDOW_MILLIS / 1000);
        long first = ProcessCpu.compilerNanos(pid);
        if (first < 0) {
            return new Outcome(0, false);
        }
        gate.sample(0, first / 1_000_000);
        while (elapsedMillis(start) + SPAN_MILLIS <= capMillis) {
            if (!bar.during(label + " JIT settling", SPAN_MILLIS, stop)) {
                return new Outcome(elapsedMillis(start), false);
            }
            long jit = ProcessCpu.compilerNanos(pid);
            if (jit < 0) {
                return new Outcome(elapsedMillis(start), false);
            }
            gate.sample(elapsedMillis(start), jit / 1_000_000);
            if (gate.quiet()) {
                return new Outcome(elapsedMillis(start), true);
            }
        }
        return new Outcome(elapsedMillis(start), false);
    }

    private static long elapsedMillis(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
