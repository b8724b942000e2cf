package org.irmi.bench.experiments.internal.normalday;

import org.irmi.bench.experiments.internal.poison.PoisonExperiment;
import org.irmi.bench.experiments.internal.poison.Variant;

/**
 * What one trial of the normal day measured on one (load, variant): the quiet window (nothing
 * wrong, the JIT warm) and, for I-RMI, the contended window (a CPU burner beside the backend).
 *
 * @param mix the load
 * @param variant plain JacORB or I-RMI with one of the experiments' SLAs
 * @param rep the trial, from 1
 * @param throughput normal DayTrader operations the backend executed per second in the quiet window
 * @param p99Millis the web tier's p99 over every page in the quiet window (each page's backend calls included)
 * @param p50Millis the same page latency's median
 * @param cpuMicrosPerCall the backend process's CPU time (user + system) per normal operation in the quiet window
 * @param webCpuMicrosPerCall the web tier process's CPU time per normal backend operation in the quiet window
 * @param quietErrors normal operations that failed in the quiet window, on either tier
 * @param episodesQuiet poison episodes the backend opened in the quiet window (NaN for plain JacORB)
 * @param contendedSeconds how long the contended window ran (0 when it did not)
 * @param episodesContended poison episodes opened in the contended window (NaN when it did not run)
 * @param alarmsContended episodes in the contended window that named a suspect (NaN when it did not run)
 * @param contendedErrors normal operations that failed in the contended window
 * @param contendedThroughput normal operations per second in the contended window (NaN when it did not run)
 * @param auditProblems the consistency audit's problems after the trial (-1: it could not run)
 * @param loadAverage the machine's 1-minute load average at the start
 * @param warmupSeconds how long the trial warmed up: the fixed warm-up and the wait for the JIT to settle
 * @param jitSettled whether the backend's JIT settled before the cap ({@link JitWarmUp}); null when the trial did not wait for it
 * @param quietJitMillisPerSecond CPU the backend's JIT compiler threads used in the quiet window, ms per second (NaN: not read)
 */
record NormalDayRun(PoisonExperiment.Mix mix, Variant variant, int rep, double throughput, double p99Millis, double p50Millis,
                    double cpuMicrosPerCall, double webCpuMicrosPerCall, long quietErrors, double episodesQuiet, double contendedSeconds,
                    double episodesContended, double alarmsContended, long contendedErrors, double contendedThroughput,
                    long auditProblems, double loadAverage, double warmupSeconds, Boolean jitSettled,
                    double quietJitMillisPerSecond) {

    /** @return e.g. "heavy, I-RMI, cost attribution, trial 2" */
    String label() {
        return mix.name() + ", " + variant.label() + ", trial " + rep;
    }
}
