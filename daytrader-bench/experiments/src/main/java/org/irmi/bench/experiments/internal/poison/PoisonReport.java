package org.irmi.bench.experiments.internal.poison;

import java.util.ArrayList;
import java.util.List;

import org.irmi.bench.experiments.Chart;
import org.irmi.bench.experiments.ExperimentResult;
import org.irmi.bench.experiments.Goal;
import org.irmi.bench.experiments.RunContext;
import org.irmi.bench.experiments.Table;
import org.irmi.bench.experiments.internal.OrbKind;

/** Turns the poison experiment's runs into its table, charts (Figures 6-7 and throughput) and goals. */
final class PoisonReport {

    private PoisonReport() {
    }

    static void write(RunContext context, ExperimentResult result, List<PoisonExperiment.Run> runs) {
        Table table = Table.of("Backend throughput of normal operations (calls/s) and poison identification",
                "Load", "ORB", "Steady (calls/s)", "Episode 1 (% of steady)", "Later episodes (% of steady)",
                "After (% of steady)", "Poison calls rejected", "Identified in episode", "Time to identify (s)",
                "False positives (normal ops failed)", "Audit problems");
        List<String> csv = new ArrayList<>();
        for (PoisonExperiment.Run run : runs) {
            long rejected = run.episodes().stream().filter(PoisonExperiment.Call::rejected).count();
            int identified = run.identifiedInEpisode();
            table.row(run.mix().name(), run.orb().label(), fmt(run.steady()), fmt(run.episodePercent(0)),
                    fmt(run.laterEpisodesPercent()), fmt(run.afterPercent()), rejected + " of " + run.episodes().size(),
                    identified == 0 ? "never" : String.valueOf(identified),
                    Double.isNaN(run.secondsToIdentify()) ? "-" : String.format("%.1f", run.secondsToIdentify()),
                    String.valueOf(run.falsePositives()), run.auditProblems() < 0 ? "audit failed" : String.valueOf(run.auditProblems()));
            if (run.falsePositives() > 0) {
                result.note(run.mix().name() + " on " + run.orb().label() + ": failed normal operations: backend "
                        + PoisonExperiment.describeErrors(run.backend().errorsByOperation()) + ", web tier "
                        + PoisonExperiment.describeErrors(run.web().errorsByOperation()));
            }
            if (run.audit() == null) {
                result.note(run.mix().name() + " on " + run.orb().label() + ": the consistency audit COULD NOT RUN: " + run.auditError());
            } else if (!run.audit().isConsistent()) {
                result.note(run.mix().name() + " on " + run.orb().label() + ": the consistency audit FOUND PROBLEMS: " + run.audit());
            }
            result.note(run.mix().name() + " on " + run.orb().label() + ": 1-minute load average at the start "
                    + String.format("%.1f", run.loadAverage()) + ".");
            for (PoisonExperiment.Call call : run.episodes()) {
                csv.add(String.format("%s,%s,%.3f,%.3f,%d", run.mix().name(), run.orb().name().toLowerCase(),
                        (call.startMillis() / 1000.0 - run.loadStartSecond()), (call.endMillis() - call.startMillis()) / 1000.0,
                        call.status()));
            }
        }
        context.writeCsv("poison-episodes.csv", "load,orb,start_s,duration_s,http_status", csv);
        result.table(table);
        result.note("Throughput counts the normal DayTrader operations the backend executed per second (the poison"
                + " operation excluded). Episode k is the " + PoisonExperiment.POISON_MILLIS / 1000 + " s from the k-th poison"
                + " call; its throughput is given in % of the " + PoisonExperiment.BASELINE_SECONDS + " s just before it (a local"
                + " baseline: warm-up and other processes' load cancel out). 'After' is in % of the steady phase. The first episode cannot be protected by a filter that acts before dispatch (the call is already"
                + " running when it is identified), so the throughput goal is read on the later episodes; episode 1 is shown.");
        result.note("Time to identify: from the first poison call to the first rejected probe (a 1 ms poison call every "
                + PoisonExperiment.PROBE_PERIOD_MILLIS + " ms).");

        for (String mix : runs.stream().map(r -> r.mix().name()).distinct().toList()) {
            Chart tput = Chart.of("poison-" + mix + "-throughput.png", "Backend throughput, " + mix + " load (poison at "
                    + episodeTimes(runs, mix) + ")", "time (s)", "normal calls/s", false);
            Chart fig6 = Chart.of("poison-" + mix + "-fig6-exec-time.png", "Figure 6. Average call execution time, " + mix
                    + " load", "time (s)", "ms/call", false);
            Chart fig7 = Chart.of("poison-" + mix + "-fig7-gc.png", "Figure 7. Garbage collection frequency at the backend, "
                    + mix + " load", "time (s)", "GCs/s", false);
            for (PoisonExperiment.Run run : runs) {
                if (!run.mix().name().equals(mix)) {
                    continue;
                }
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
                tput.line(run.orb().label(), x, t);
                fig6.line(run.orb().label(), x, e);
                fig7.line(run.orb().label(), x, g);
            }
            for (PoisonExperiment.Run run : runs) {
                if (run.mix().name().equals(mix) && run.orb() == OrbKind.PLAIN) {
                    for (PoisonExperiment.Call call : run.episodes()) {
                        double x = call.startMillis() / 1000.0 - run.loadStartSecond();
                        tput.marker("poison call (plain run)", x);
                        fig6.marker("poison call (plain run)", x);
                        fig7.marker("poison call (plain run)", x);
                    }
                }
            }
            result.chart(tput).chart(fig6).chart(fig7);
        }

        goals(result, runs);
    }

    /** Poison calls answered with a rejection instead of running, over the runs. */
    private static double rejectedCalls(List<PoisonExperiment.Run> runs) {
        return runs.stream().mapToLong(r -> r.episodes().stream().filter(PoisonExperiment.Call::rejected).count()).sum();
    }

    private static String episodeTimes(List<PoisonExperiment.Run> runs, String mix) {
        for (PoisonExperiment.Run run : runs) {
            if (run.mix().name().equals(mix)) {
                List<String> times = new ArrayList<>();
                run.episodes().forEach(c -> times.add(String.valueOf(c.startMillis() / 1000 - run.loadStartSecond())));
                return "t = " + String.join(", ", times) + " s";
            }
        }
        return "";
    }

    private static void goals(ExperimentResult result, List<PoisonExperiment.Run> runs) {
        List<PoisonExperiment.Run> plain = runs.stream().filter(r -> r.orb() == OrbKind.PLAIN).toList();
        List<PoisonExperiment.Run> irmi = runs.stream().filter(r -> r.orb() == OrbKind.IRMI).toList();
        double plainWorst = plain.stream().mapToDouble(PoisonExperiment.Run::laterEpisodesPercent).min().orElse(Double.NaN);
        double irmiWorst = irmi.stream().mapToDouble(PoisonExperiment.Run::laterEpisodesPercent).min().orElse(Double.NaN);
        result.figure("plain.throughputDuringLaterEpisodesPercent", plainWorst);
        result.figure("irmi.throughputDuringLaterEpisodesPercent", irmiWorst);
        result.figure("plain.auditProblems", auditFigure(plain));
        result.figure("irmi.auditProblems", irmi.isEmpty() ? Double.NaN : auditFigure(irmi));
        result.figure("plain.poisonCallsRejected", rejectedCalls(plain));
        result.figure("irmi.poisonCallsRejected", irmi.isEmpty() ? Double.NaN : rejectedCalls(irmi));
        result.figure("irmi.falsePositives", irmi.isEmpty() ? Double.NaN
                : irmi.stream().mapToLong(PoisonExperiment.Run::falsePositives).sum());
        String plainEpisode = plain.stream().map(r -> episodeText(r.identifiedInEpisode())).toList().toString();
        if (irmi.isEmpty()) {
            result.goal(new Goal("poison", "I-RMI keeps >= 90% of steady throughput during (later) poison episodes",
                    fmt(plainWorst) + "%", "not run", false));
            result.goal(new Goal("poison", "I-RMI identifies the poison operation in the first episode", plainEpisode, "not run", false));
            result.goal(new Goal("poison", "I-RMI filters no normal operation", "-", "not run", false));
        } else {
            result.goal(new Goal("poison", "I-RMI keeps >= 90% of steady throughput during (later) poison episodes",
                    fmt(plainWorst) + "%", fmt(irmiWorst) + "%", !Double.isNaN(irmiWorst) && irmiWorst >= 90));
            boolean first = irmi.stream().allMatch(r -> r.identifiedInEpisode() == 1);
            result.goal(new Goal("poison", "I-RMI identifies the poison operation in the first episode", plainEpisode,
                    irmi.stream().map(r -> episodeText(r.identifiedInEpisode())).toList().toString(), first));
            long falsePositives = irmi.stream().mapToLong(PoisonExperiment.Run::falsePositives).sum();
            result.goal(new Goal("poison", "I-RMI filters no normal operation", "-", falsePositives + " failed",
                    falsePositives == 0));
        }
        result.goal(new Goal("poison", "DayTrader consistency audit after each run finds nothing",
                auditText(plain), irmi.isEmpty() ? "not run" : auditText(irmi),
                !irmi.isEmpty() && auditFigure(plain) == 0 && auditFigure(irmi) == 0));
    }

    /** @return the audit problems over the runs, or NaN when an audit could not run */
    private static double auditFigure(List<PoisonExperiment.Run> runs) {
        long sum = 0;
        for (PoisonExperiment.Run run : runs) {
            if (run.auditProblems() < 0) {
                return Double.NaN;
            }
            sum += run.auditProblems();
        }
        return sum;
    }

    private static String auditText(List<PoisonExperiment.Run> runs) {
        double figure = auditFigure(runs);
        return Double.isNaN(figure) ? "audit failed" : (long) figure + " problems";
    }

    private static String episodeText(int episode) {
        return episode == 0 ? "never" : "episode " + episode;
    }

    static String fmt(double value) {
        return Double.isNaN(value) ? "n/a" : String.format("%.1f", value);
    }
}
