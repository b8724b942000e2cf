package org.irmi.bench.experiments.internal.poison;

import java.util.List;
import java.util.function.IntToDoubleFunction;

import org.irmi.bench.daytrader.AuditReport;

/**
 * Everything measured in one trial of one (load, variant), and the figures derived from it.
 * Throughput is the backend's normal DayTrader operations per second (the poison excluded).
 *
 * @param mix the load
 * @param variant plain JacORB or an I-RMI identification method
 * @param rep the trial's repetition, from 1
 * @param backend the backend's per-second series
 * @param web the web tier's per-second series
 * @param loadStartSecond when httperf started (epoch second)
 * @param steadyFromSecond when the steady phase began (epoch second)
 * @param episodes the poison calls, oldest first
 * @param firstRejectedProbeMillis when the first probe between episodes was rejected (epoch ms), 0 if none was
 * @param httperfReplies httperf's replies by status class: 2xx, 4xx, 5xx (-1 when httperf gave no report)
 * @param audit the consistency audit after the run, null when it could not run
 * @param auditError why the audit could not run, or null
 * @param endSecond the end of the run's last phase (epoch second)
 * @param loadAverage the machine's 1-minute load average at the start
 */
record PoisonRun(PoisonExperiment.Mix mix, Variant variant, int rep, BackendSeries backend, BackendSeries web,
                 long loadStartSecond, long steadyFromSecond, List<PoisonExperiment.Call> episodes,
                 long firstRejectedProbeMillis, long[] httperfReplies, AuditReport audit, String auditError, long endSecond,
                 double loadAverage) {

    /** Seconds before each episode that make its local baseline. */
    static final int BASELINE_SECONDS = 3;

    double steady() {
        return backend.throughput(steadyFromSecond, episodes.get(0).startMillis() / 1000);
    }

    /**
     * Throughput during episode k (0-based; its 4 s from the call), in percent of the throughput in
     * the {@value #BASELINE_SECONDS} s just before it: a local baseline, so the JIT warm-up still
     * going on and the load of other processes on this shared machine cancel out.
     */
    double episodePercent(int k) {
        long from = episodes.get(k).startMillis() / 1000;
        double baseline = backend.throughput(from - BASELINE_SECONDS, from);
        return baseline > 0 ? 100 * backend.throughput(from, from + PoisonExperiment.POISON_MILLIS / 1000) / baseline
                : Double.NaN;
    }

    /**
     * The deepest second of episode k (0-based): the lowest one-second throughput among its
     * {@value PoisonExperiment#POISON_MILLIS} ms, in percent of the same local baseline as
     * {@link #episodePercent}. This is how the paper reports the harm: its Figure 6 plots throughput
     * per second, and "an up to 85% drop" is the bottom of the dip, not the episode's mean.
     */
    double episodeDeepestPercent(int k) {
        return deepestPercent(episodes.get(k).startMillis() / 1000);
    }

    /**
     * The control for {@link #episodeDeepestPercent}: the same figure for the
     * {@value PoisonExperiment#POISON_MILLIS} ms just before the first poison call, when no poison ran.
     * It is the noise floor of the deepest-second figure: what four seconds of normal load give.
     */
    double controlDeepestPercent() {
        return deepestPercent(episodes.get(0).startMillis() / 1000 - PoisonExperiment.POISON_MILLIS / 1000);
    }

    private double deepestPercent(long fromSecond) {
        double baseline = backend.throughput(fromSecond - BASELINE_SECONDS, fromSecond);
        if (!(baseline > 0)) {
            return Double.NaN;
        }
        double deepest = Double.POSITIVE_INFINITY;
        for (long s = fromSecond; s < fromSecond + PoisonExperiment.POISON_MILLIS / 1000; s++) {
            deepest = Math.min(deepest, backend.throughput(s, s + 1));
        }
        return 100 * deepest / baseline;
    }

    /** @return the mean of {@link #episodeDeepestPercent} over the episodes after the first; NaN when none could be measured */
    double laterEpisodesDeepestPercent() {
        return mean(this::episodeDeepestPercent, 1);
    }

    /** @return the mean of {@link #episodePercent} over all episodes; NaN when none could be measured */
    double allEpisodesPercent() {
        return mean(this::episodePercent, 0);
    }

    /**
     * @return the mean over the episodes after the first (a filter before dispatch cannot stop the
     *     call that is already running when it is identified); NaN when none could be measured
     */
    double laterEpisodesPercent() {
        return mean(this::episodePercent, 1);
    }

    private double mean(IntToDoubleFunction perEpisode, int fromEpisode) {
        double sum = 0;
        int n = 0;
        for (int k = fromEpisode; k < episodes.size(); k++) {
            double p = perEpisode.applyAsDouble(k);
            if (!Double.isNaN(p)) {
                sum += p;
                n++;
            }
        }
        return n > 0 ? sum / n : Double.NaN;
    }

    /** @return throughput from 2 s after the last episode to the end, in % of steady */
    double afterPercent() {
        long from = episodes.get(episodes.size() - 1).startMillis() / 1000 + PoisonExperiment.POISON_MILLIS / 1000 + 2;
        return steady() > 0 ? 100 * backend.throughput(from, endSecond) / steady() : Double.NaN;
    }

    /** @return poison calls answered with a rejection instead of running */
    long rejectedCalls() {
        return episodes.stream().filter(PoisonExperiment.Call::rejected).count();
    }

    /**
     * @return the episode (1-based) after which the poison operation was rejected: the last episode
     *     started before the first rejected probe, or the episode before the first rejected call; 0
     *     when it never was
     */
    int identifiedInEpisode() {
        int byProbe = 0;
        if (firstRejectedProbeMillis > 0) {
            for (int k = episodes.size() - 1; k >= 0; k--) {
                if (episodes.get(k).startMillis() <= firstRejectedProbeMillis) {
                    byProbe = k + 1;
                    break;
                }
            }
        }
        for (int k = 1; k < episodes.size(); k++) {
            if (episodes.get(k).rejected()) {
                return byProbe > 0 ? Math.min(byProbe, k) : k;
            }
        }
        return byProbe;
    }

    /** @return identifiedInEpisode as a figure: NaN when never identified */
    double identifiedFigure() {
        int e = identifiedInEpisode();
        return e == 0 ? Double.NaN : e;
    }

    /** @return seconds from the first poison call to the first rejected probe, NaN when none was */
    double secondsToIdentify() {
        return firstRejectedProbeMillis > 0 ? (firstRejectedProbeMillis - episodes.get(0).startMillis()) / 1000.0 : Double.NaN;
    }

    /** @return normal operations that failed, on the backend and the web tier */
    long falsePositives() {
        long errors = 0;
        for (long e : web.errorsByOperation().values()) {
            errors += e;
        }
        for (long e : backend.errorsByOperation().values()) {
            errors += e;
        }
        return errors;
    }

    /** @return the audit's problems, or -1 when the audit itself could not run */
    long auditProblems() {
        if (audit == null) {
            return -1;
        }
        return audit.getBadBalances() + audit.getBadHoldings() + audit.getStuckOrders() + audit.getDuplicateIds();
    }

    /** @return the audit's problems as a figure, NaN when it could not run */
    double auditFigure() {
        return auditProblems() < 0 ? Double.NaN : auditProblems();
    }

    /** @return e.g. "heavy, I-RMI (cost attribution), trial 2" */
    String label() {
        return mix.name() + ", " + variant.label() + ", trial " + rep;
    }
}
