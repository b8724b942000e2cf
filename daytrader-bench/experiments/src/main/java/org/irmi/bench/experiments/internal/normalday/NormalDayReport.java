package org.irmi.bench.experiments.internal.normalday;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

import org.irmi.bench.experiments.Bound;
import org.irmi.bench.experiments.ExperimentResult;
import org.irmi.bench.experiments.Goal;
import org.irmi.bench.experiments.RunContext;
import org.irmi.bench.experiments.Spread;
import org.irmi.bench.experiments.Table;
import org.irmi.bench.experiments.internal.poison.PoisonExperiment;
import org.irmi.bench.experiments.internal.poison.Variant;

/**
 * Turns the normal-day trials into the per-trial table and the goals. A cost figure is a ratio of
 * the I-RMI trial to the plain JacORB trial of the same repetition and load (they ran next to each
 * other), so the machine's drift between repetitions cancels; the goal reads the median over the
 * repetitions, with the spread.
 */
final class NormalDayReport {

    /** What I-RMI may cost on a normal day: throughput at least this share of plain JacORB's ... */
    static final double MIN_THROUGHPUT_RATIO = 0.97;
    /** ... and page p99 at most this multiple of it. */
    static final double MAX_P99_RATIO = 1.05;
    /** Episodes per 10 minutes of contended normal load at most. */
    static final double MAX_EPISODES_PER_10_MIN = 1;

    private NormalDayReport() {
    }

    static void write(RunContext context, ExperimentResult result, List<NormalDayRun> runs, NormalDayExperiment.Phases phases,
                      PoisonExperiment.Pinning pinning) {
        Table table = Table.of("Normal DayTrader load, nothing wrong: per trial, in the order run", "Load", "Variant", "Trial",
                "Throughput (calls/s)", "Page p50 (ms)", "Page p99 (ms)", "Backend CPU per call (us)", "Web tier CPU per call (us)", "Failed (quiet)",
                "Episodes (quiet)", "Contended (s)", "Episodes (contended)", "Named a suspect (contended)",
                "Throughput contended (calls/s)", "Failed (contended)", "Audit problems", "Load avg", "Warm-up (s)",
                "JIT in quiet window (ms/s)");
        List<String> csv = new ArrayList<>();
        for (NormalDayRun r : runs) {
            table.row(r.mix().name(), r.variant().label(), String.valueOf(r.rep()), fmt(r.throughput()), fmt2(r.p50Millis()),
                    fmt2(r.p99Millis()), fmt(r.cpuMicrosPerCall()), fmt(r.webCpuMicrosPerCall()), String.valueOf(r.quietErrors()), fmt0(r.episodesQuiet()),
                    fmt0(r.contendedSeconds()), fmt0(r.episodesContended()), fmt0(r.alarmsContended()),
                    fmt(r.contendedThroughput()), String.valueOf(r.contendedErrors()),
                    r.auditProblems() < 0 ? "audit failed" : String.valueOf(r.auditProblems()), fmt(r.loadAverage()),
                    fmt0(r.warmupSeconds()) + (r.jitSettled() == null ? "" : r.jitSettled() ? " (JIT settled)" : " (JIT not settled)"),
                    fmt(r.quietJitMillisPerSecond()));
            csv.add(String.format("%s,%s,%d,%.2f,%.3f,%.3f,%.2f,%.2f,%d,%.0f,%.0f,%.0f,%.0f,%.2f,%d,%d,%.1f,%s,%.2f", r.mix().name(), r.variant().key(),
                    r.rep(), r.throughput(), r.p50Millis(), r.p99Millis(), r.cpuMicrosPerCall(), r.webCpuMicrosPerCall(), r.quietErrors(), r.episodesQuiet(),
                    r.contendedSeconds(), r.episodesContended(), r.alarmsContended(), r.contendedThroughput(),
                    r.contendedErrors(), r.auditProblems(), r.warmupSeconds(), r.jitSettled() == null ? "" : r.jitSettled(),
                    r.quietJitMillisPerSecond()));
        }
        context.writeCsv("normal-day.csv", "load,variant,trial,throughput,p50_ms,p99_ms,cpu_us_per_call,web_cpu_us_per_call,failed_quiet,"
                + "episodes_quiet,contended_s,episodes_contended,alarms_contended,throughput_contended,failed_contended,audit,"
                + "warmup_s,jit_settled,jit_ms_per_s_quiet", csv);
        result.table(table);
        result.note("Nothing is wrong in these trials: no poison call, no slow node. Throughput counts the normal DayTrader"
                + " operations the backend executed per second in the quiet window (" + phases.quietMillis() / 1000 + " s, after "
                + phases.warmupMillis() / 1000 + " s of warm-up"
                + (phases.jitCapMillis() > 0 ? " and then until the backend's JIT compiler threads used at most "
                        + JitWarmUp.QUIET_MILLIS_PER_SECOND + " ms/s over the last " + JitWarmUp.WINDOW_MILLIS / 1000
                        + " s (sampled every " + JitWarmUp.SPAN_MILLIS / 1000 + " s), at most " + phases.jitCapMillis() / 1000 + " s more: Warm-up (s)" : "")
                + "); page p50/p99 are the web tier's latency over every"
                + " page in that window (each page's RMI-IIOP calls to the backend included); CPU per call is the backend"
                + " process's user + system time over the window divided by its normal calls (the web tier's likewise, per backend call).");
        result.note("The contended window (" + NormalDayExperiment.CONTENDED_VARIANT.label() + " only, " + phases.contendedMillis() / 1000 + " s, after the quiet one): another"
                + " process spins the backend's CPU " + NormalDayExperiment.BURN_MILLIS / 1000 + " s in every "
                + NormalDayExperiment.BURN_PERIOD_MILLIS / 1000 + " s (a browser, a build, a backup beside the service)."
                + " Episodes: poison episodes the backend's poison point opened (its dashboard's count); 'named a suspect': those"
                + " that named a request type, the only ones that raise an alarm.");
        result.note("Backend conditions as in the poison experiment: " + String.join(" ", PoisonExperiment.BACKEND_JVM)
                + (pinning.backendCpus() == null ? ", not pinned" : ", pinned to CPU " + pinning.backendCpus()
                + ", web tier and httperf on CPU " + pinning.clientCpus())
                + "; at the paper's load the backend is limited to " + PoisonExperiment.PAPER_BACKEND_CORES
                + " of its core (cgroup quota). The I-RMI variants load the poison experiment's SLAs (poison.yaml, poison-setdiff.yaml).");
        String extra = System.getProperty(org.irmi.bench.experiments.internal.poison.DayTraderUnderTest.BACKEND_OPTIONS);
        if (extra != null && !extra.isBlank()) {
            result.note("The backends ran with these options added: " + extra.trim());
        }
        String webOrb = System.getProperty(org.irmi.bench.experiments.internal.poison.DayTraderUnderTest.WEB_ORB);
        if (webOrb != null) {
            result.note("Every web tier ran on " + webOrb + ", whatever its backend's ORB.");
        }
        goals(result, runs);
    }

    private static void goals(ExperimentResult result, List<NormalDayRun> runs) {
        for (PoisonExperiment.Mix mix : List.of(PoisonExperiment.HEAVY, PoisonExperiment.PAPER)) {
            List<NormalDayRun> plain = of(runs, mix, Variant.PLAIN);
            if (plain.isEmpty()) {
                continue;
            }
            String m = mix.name();
            result.figure("plain." + m + ".throughput", spread(plain, NormalDayRun::throughput).median());
            result.figure("plain." + m + ".p99Millis", spread(plain, NormalDayRun::p99Millis).median());
            result.figure("plain." + m + ".cpuMicrosPerCall", spread(plain, NormalDayRun::cpuMicrosPerCall).median());
            for (Variant v : List.of(Variant.COST, Variant.SET_DIFFERENCE)) {
                List<NormalDayRun> irmi = of(runs, mix, v);
                if (irmi.isEmpty()) {
                    continue;
                }
                Spread tput = ratios(plain, irmi, NormalDayRun::throughput);
                Spread p99 = ratios(plain, irmi, NormalDayRun::p99Millis);
                Spread cpu = ratios(plain, irmi, NormalDayRun::cpuMicrosPerCall);
                result.figure(v.key() + "." + m + ".throughput", spread(irmi, NormalDayRun::throughput).median());
                result.figure(v.key() + "." + m + ".throughputRatio", tput.median());
                result.figure(v.key() + "." + m + ".p99Ratio", p99.median());
                result.figure(v.key() + "." + m + ".cpuPerCallRatio", cpu.median());
                result.figure(v.key() + "." + m + ".webCpuPerCallRatio", ratios(plain, irmi, NormalDayRun::webCpuMicrosPerCall).median());
                result.goal(new Goal("normal-day", "throughput-" + v.key() + "-" + m, "a normal day, " + m + " load: normal"
                        + " throughput on " + v.label() + " / plain JacORB, same repetition", "%.3fx", null, tput,
                        Bound.atLeast(MIN_THROUGHPUT_RATIO), null));
                result.goal(new Goal("normal-day", "p99-" + v.key() + "-" + m, "a normal day, " + m + " load: page p99 on "
                        + v.label() + " / plain JacORB, same repetition", "%.3fx", null, p99, Bound.atMost(MAX_P99_RATIO), null));
            }
        }
        List<NormalDayRun> irmi = runs.stream().filter(r -> r.variant() != Variant.PLAIN).toList();
        List<NormalDayRun> contended = irmi.stream().filter(r -> r.contendedSeconds() > 0).toList();
        if (!contended.isEmpty()) {
            double seconds = contended.stream().mapToDouble(NormalDayRun::contendedSeconds).sum();
            double episodes = contended.stream().mapToDouble(NormalDayRun::episodesContended).sum();
            double alarms = contended.stream().mapToDouble(NormalDayRun::alarmsContended).sum();
            result.figure("irmi.contendedSeconds", seconds);
            result.figure("irmi.contendedEpisodes", episodes);
            result.figure("irmi.contendedAlarms", alarms);
            result.goal(new Goal("normal-day", "quiet-day-episodes", "a normal day beside a CPU burner: poison episodes per 10"
                    + " minutes on I-RMI, over all " + Math.round(seconds) + " s of contended load", "%.2f", null,
                    Spread.of(List.of(seconds > 0 ? episodes * 600 / seconds : Double.NaN)), Bound.atMost(MAX_EPISODES_PER_10_MIN),
                    null));
        }
        if (!irmi.isEmpty()) {
            Optional<NormalDayRun> worst = irmi.stream().max((a, b) -> Long.compare(failed(a), failed(b)));
            result.goal(new Goal("normal-day", "refused", "a normal day: normal operations failed in the worst I-RMI trial"
                    + " (quiet and contended windows)", "%.0f",
                    Spread.of(List.of((double) runs.stream().filter(r -> r.variant() == Variant.PLAIN)
                            .mapToLong(NormalDayReport::failed).max().orElse(0))),
                    Spread.of(List.of((double) failed(worst.get()))), Bound.atMost(0), null));
        }
    }

    private static long failed(NormalDayRun r) {
        return r.quietErrors() + r.contendedErrors();
    }

    /** @return the per-repetition ratios irmi / plain of a figure (a repetition missing either side is skipped) */
    static Spread ratios(List<NormalDayRun> plain, List<NormalDayRun> irmi, ToDoubleFunction<NormalDayRun> figure) {
        List<Double> out = new ArrayList<>();
        for (NormalDayRun i : irmi) {
            plain.stream().filter(p -> p.rep() == i.rep()).findFirst().ifPresent(p -> {
                double base = figure.applyAsDouble(p);
                out.add(base > 0 ? figure.applyAsDouble(i) / base : Double.NaN);
            });
        }
        return Spread.of(out);
    }

    private static List<NormalDayRun> of(List<NormalDayRun> runs, PoisonExperiment.Mix mix, Variant variant) {
        return runs.stream().filter(r -> r.mix().equals(mix) && r.variant() == variant).toList();
    }

    private static Spread spread(List<NormalDayRun> runs, ToDoubleFunction<NormalDayRun> figure) {
        return Spread.of(runs.stream().map(figure::applyAsDouble).toList());
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "n/a" : String.format("%.1f", v);
    }

    private static String fmt2(double v) {
        return Double.isNaN(v) ? "n/a" : String.format("%.2f", v);
    }

    private static String fmt0(double v) {
        return Double.isNaN(v) ? "-" : String.format("%.0f", v);
    }
}
