package org.irmi.bench.experiments.internal.poison;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

import org.irmi.bench.experiments.Bound;
import org.irmi.bench.experiments.Chart;
import org.irmi.bench.experiments.ExperimentResult;
import org.irmi.bench.experiments.Goal;
import org.irmi.bench.experiments.Harm;
import org.irmi.bench.experiments.RunContext;
import org.irmi.bench.experiments.Spread;
import org.irmi.bench.experiments.Table;

/**
 * Turns the poison trials into the per-trial table, the charts (Figures 6-7 and throughput, from
 * each cell's first trial) and the goals, each built from the per-trial values of its variant.
 */
final class PoisonReport {

    private PoisonReport() {
    }

    static void write(RunContext context, ExperimentResult result, List<PoisonRun> runs, PoisonExperiment.Pinning pinning) {
        Table table = Table.of("Backend throughput of normal operations and poison identification, per trial",
                "Load", "Variant", "Trial", "Steady (calls/s)", "Episodes (% of the 3 s before)", "Later episodes (%)",
                "Deepest second per episode (%)", "Deepest second, 4 s without poison (%)",
                "After (% of steady)", "Poison calls rejected", "Identified in episode", "Time to identify (s)",
                "False positives", "httperf 2xx/4xx/5xx", "Audit problems", "Load avg");
        List<String> csv = new ArrayList<>();
        for (PoisonRun run : runs) {
            List<String> perEpisode = new ArrayList<>();
            List<String> deepest = new ArrayList<>();
            for (int k = 0; k < run.episodes().size(); k++) {
                perEpisode.add(fmt(run.episodePercent(k)));
                deepest.add(fmt(run.episodeDeepestPercent(k)));
            }
            int identified = run.identifiedInEpisode();
            long[] h = run.httperfReplies();
            table.row(run.mix().name(), run.variant().label(), String.valueOf(run.rep()), fmt(run.steady()),
                    String.join(" / ", perEpisode), fmt(run.laterEpisodesPercent()), String.join(" / ", deepest),
                    fmt(run.controlDeepestPercent()), fmt(run.afterPercent()),
                    run.rejectedCalls() + " of " + run.episodes().size(), identified == 0 ? "never" : String.valueOf(identified),
                    Double.isNaN(run.secondsToIdentify()) ? "-" : String.format("%.1f", run.secondsToIdentify()),
                    String.valueOf(run.falsePositives()), h[0] < 0 ? "no report" : h[0] + "/" + h[1] + "/" + h[2],
                    run.auditProblems() < 0 ? "audit failed" : String.valueOf(run.auditProblems()), fmt(run.loadAverage()));
            if (run.falsePositives() > 0) {
                result.note(run.label() + ": failed normal operations: backend " + describe(run.backend()) + ", web tier "
                        + describe(run.web()));
            }
            if (run.audit() == null) {
                result.note(run.label() + ": the consistency audit COULD NOT RUN: " + run.auditError());
            } else if (!run.audit().isConsistent()) {
                result.note(run.label() + ": the consistency audit FOUND PROBLEMS: " + run.audit());
            }
            for (PoisonExperiment.Call call : run.episodes()) {
                csv.add(String.format("%s,%s,%d,%.3f,%.3f,%d", run.mix().name(), run.variant().key(), run.rep(),
                        call.startMillis() / 1000.0 - run.loadStartSecond(), (call.endMillis() - call.startMillis()) / 1000.0,
                        call.status()));
            }
        }
        context.writeCsv("poison-episodes.csv", "load,variant,trial,start_s,duration_s,http_status", csv);
        result.table(table);
        result.note("Throughput counts the normal DayTrader operations the backend executed per second (the poison excluded)."
                + " Episode k is the " + PoisonExperiment.POISON_MILLIS / 1000 + " s from the k-th poison call, in % of the "
                + PoisonRun.BASELINE_SECONDS + " s just before it. 'Later episodes' is the mean over the episodes after the"
                + " first: a filter before dispatch cannot stop the call that is running when it is identified.");
        result.note("The harm on plain JacORB is read as the paper reports it: Figure 6 plots the backend's throughput per"
                + " second, and its 'up to 85% drop' is the bottom of the dip. 'Deepest second' is the lowest one-second"
                + " throughput in an episode's " + PoisonExperiment.POISON_MILLIS / 1000 + " s, in % of the same 3 s"
                + " baseline; the harm counts as shown when plain's mean over the later episodes is at most 50% (a drop of"
                + " at least 50%). Its control, 'deepest second, 4 s without poison', is the same figure for the "
                + PoisonExperiment.POISON_MILLIS / 1000 + " s just before the first poison call: the noise floor of the"
                + " measure. The I-RMI goal stays on the episode's mean ('later episodes'), the stricter reading for it.");
        result.note("Identified in episode k: the last episode started before the first rejected probe (a 1 ms poison call every "
                + PoisonTrial.PROBE_PERIOD_MILLIS + " ms between episodes, from " + PoisonTrial.PROBE_DELAY_MILLIS / 1000.0
                + " s after a call returns) or before the first rejected poison call. False positives: normal operations that"
                + " failed on either tier. The SLA's neverFilter lists only login, logout, buy and sell.");
        result.note("Backend conditions, for every variant: DayTrader's default population (" + DayTraderUnderTest.USERS + " users, "
                + DayTraderUnderTest.QUOTES + " quotes), " + String.join(" ", PoisonExperiment.BACKEND_JVM)
                + (pinning.backendCpus() == null ? ", not pinned" : ", pinned to CPU " + pinning.backendCpus()
                + " (taskset), web tier and httperf on CPU " + pinning.clientCpus())
                + ". At the paper's load the backend is also limited to " + PoisonExperiment.PAPER_BACKEND_CORES
                + " of that core (a cgroup CPU quota, 10 ms period): the paper's two 2.8 GHz Xeons of 2003."
                + " httperf replays sessions generated from"
                + " DayTrader's standard mix, one page per request (--wsesslog).");
        charts(result, runs);
        goals(result, runs);
    }

    private static void charts(ExperimentResult result, List<PoisonRun> runs) {
        for (String mix : runs.stream().map(r -> r.mix().name()).distinct().toList()) {
            List<PoisonRun> first = runs.stream().filter(r -> r.mix().name().equals(mix) && r.rep() == 1).toList();
            if (first.isEmpty()) {
                continue;
            }
            Chart tput = Chart.of("poison-" + mix + "-throughput.png", "Backend throughput, " + mix + " load, trial 1",
                    "time (s)", "normal calls/s", false);
            Chart fig6 = Chart.of("poison-" + mix + "-fig6-exec-time.png", "Figure 6. Average call execution time, " + mix
                    + " load, trial 1", "time (s)", "ms/call", false);
            Chart fig7 = Chart.of("poison-" + mix + "-fig7-gc.png", "Figure 7. Garbage collection frequency at the backend, "
                    + mix + " load, trial 1", "time (s)", "GCs/s", false);
            for (PoisonRun run : first) {
                List<BackendSeries.Second> seconds = run.backend().between(run.loadStartSecond(), Long.MAX_VALUE);
                double[] x = new double[seconds.size()];
                double[] t = new double[seconds.size()];
                double[] e = new double[seconds.size()];
                double[] g = new double[seconds.size()];
                for (int i = 0; i < seconds.size(); i++) {
                    BackendSeries.Second s = seconds.get(i);
                    x[i] = s.epochSecond() - run.loadStartSecond();
                    t[i] = s.normalCalls();
                    e[i] = s.normalMeanMillis();
                    g[i] = s.gcCount();
                }
                tput.line(run.variant().label(), x, t);
                fig6.line(run.variant().label(), x, e);
                fig7.line(run.variant().label(), x, g);
                if (run.variant() == Variant.PLAIN) {
                    for (PoisonExperiment.Call call : run.episodes()) {
                        double at = call.startMillis() / 1000.0 - run.loadStartSecond();
                        tput.marker("poison call (plain run)", at);
                        fig6.marker("poison call (plain run)", at);
                        fig7.marker("poison call (plain run)", at);
                    }
                }
            }
            result.chart(tput).chart(fig6).chart(fig7);
        }
    }

    private static void goals(ExperimentResult result, List<PoisonRun> runs) {
        for (PoisonExperiment.Mix mix : List.of(PoisonExperiment.HEAVY, PoisonExperiment.PAPER)) {
            List<PoisonRun> plain = of(runs, mix, Variant.PLAIN);
            if (plain.isEmpty()) {
                continue;
            }
            List<PoisonRun> cost = of(runs, mix, Variant.COST);
            List<PoisonRun> setDiff = of(runs, mix, Variant.SET_DIFFERENCE);
            Spread plainLater = spread(plain, PoisonRun::laterEpisodesPercent);
            Harm drop = new Harm("deepest second of normal throughput in the later poison episodes on plain JacORB, % of"
                    + " the 3 s before (a drop of at least 50%; the paper: up to 85%)",
                    spread(plain, PoisonRun::laterEpisodesDeepestPercent), Bound.atMost(50));
            String m = mix.name();
            result.figure("plain." + m + ".laterEpisodesDeepestPercent", drop.plain().median());
            result.figure("plain." + m + ".controlDeepestPercent", spread(plain, PoisonRun::controlDeepestPercent).median());
            result.figure("plain." + m + ".laterEpisodesPercent", plainLater.median());
            result.figure("plain." + m + ".allEpisodesPercent", spread(plain, PoisonRun::allEpisodesPercent).median());
            if (!cost.isEmpty()) {
                Spread costLater = spread(cost, PoisonRun::laterEpisodesPercent);
                result.figure("cost." + m + ".laterEpisodesPercent", costLater.median());
                result.figure("cost." + m + ".laterEpisodesDeepestPercent",
                        spread(cost, PoisonRun::laterEpisodesDeepestPercent).median());
                result.goal(new Goal("poison", "later-episodes-throughput-" + m, "normal throughput during later poison"
                        + " episodes, " + m + " load, I-RMI (cost attribution), % of the 3 s before", "%.0f%%", plainLater,
                        costLater, Bound.atLeast(90), drop));
                result.goal(new Goal("poison", "identified-episode-cost-" + m, "episode after which I-RMI (cost attribution)"
                        + " rejects the poison, " + m + " load (never: episodes run + 1)", "%.0f", null, spread(cost, PoisonRun::identifiedFigure),
                        Bound.atMost(1), drop));
            }
            if (!setDiff.isEmpty()) {
                result.figure("setdiff." + m + ".laterEpisodesPercent", spread(setDiff, PoisonRun::laterEpisodesPercent).median());
                result.goal(new Goal("poison", "identified-episode-set-difference-" + m, "episode after which I-RMI (S1 - S2"
                        + " set difference, attribution off) rejects the poison, " + m + " load (never: episodes run + 1)", "%.0f", null,
                        spread(setDiff, PoisonRun::identifiedFigure), Bound.atMost(3), drop));
            }
        }
        List<PoisonRun> plain = runs.stream().filter(r -> r.variant() == Variant.PLAIN).toList();
        List<PoisonRun> irmi = runs.stream().filter(r -> r.variant() != Variant.PLAIN).toList();
        result.figure("plain.poisonCallsRejected", plain.stream().mapToLong(PoisonRun::rejectedCalls).sum());
        result.figure("irmi.poisonCallsRejected", irmi.isEmpty() ? Double.NaN : irmi.stream().mapToLong(PoisonRun::rejectedCalls).sum());
        result.figure("irmi.falsePositives", irmi.isEmpty() ? Double.NaN : irmi.stream().mapToLong(PoisonRun::falsePositives).sum());
        result.figure("plain.auditProblems", sumOrNaN(plain));
        result.figure("irmi.auditProblems", irmi.isEmpty() ? Double.NaN : sumOrNaN(irmi));
        // Every trial must be clean: the figure is the worst trial's, not a median that one clean
        // variant could hide another's failures behind.
        result.goal(new Goal("poison", "false-positives", "normal operations failed in the worst I-RMI trial (neverFilter:"
                + " login, logout, buy, sell only)", "%.0f", worst(plain, r -> (double) r.falsePositives()),
                irmi.isEmpty() ? null : worst(irmi, r -> (double) r.falsePositives()), Bound.atMost(0), null));
        result.goal(new Goal("poison", "audit", "DayTrader consistency audit problems after the worst trial", "%.0f",
                worst(plain, PoisonRun::auditFigure), irmi.isEmpty() ? null : worst(irmi, PoisonRun::auditFigure),
                Bound.atMost(0), null));
    }

    private static List<PoisonRun> of(List<PoisonRun> runs, PoisonExperiment.Mix mix, Variant variant) {
        return runs.stream().filter(r -> r.mix().equals(mix) && r.variant() == variant).toList();
    }

    private static Spread spread(List<PoisonRun> runs, ToDoubleFunction<PoisonRun> figure) {
        return Spread.of(runs.stream().map(r -> figure.applyAsDouble(r)).toList());
    }

    /** @return the largest of the runs' figures (NaN when one is NaN: an audit that could not run), as a spread of one */
    private static Spread worst(List<PoisonRun> runs, ToDoubleFunction<PoisonRun> figure) {
        double worst = Double.NEGATIVE_INFINITY;
        for (PoisonRun r : runs) {
            double v = figure.applyAsDouble(r);
            worst = Double.isNaN(v) || Double.isNaN(worst) ? Double.NaN : Math.max(worst, v);
        }
        return Spread.of(List.of(runs.isEmpty() ? Double.NaN : worst));
    }

    /** @return the audit problems over the runs, or NaN when an audit could not run */
    private static double sumOrNaN(List<PoisonRun> runs) {
        double sum = 0;
        for (PoisonRun run : runs) {
            sum += run.auditFigure();
        }
        return sum;
    }

    private static String describe(BackendSeries series) {
        return series.errorsByOperation().isEmpty() ? "none" : series.errorsByOperation().toString();
    }

    static String fmt(double value) {
        return Double.isNaN(value) ? "n/a" : String.format("%.1f", value);
    }
}
