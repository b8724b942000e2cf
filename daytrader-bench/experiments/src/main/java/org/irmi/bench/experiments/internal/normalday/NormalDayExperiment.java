package org.irmi.bench.experiments.internal.normalday;

import java.util.ArrayList;
import java.util.List;

import org.irmi.bench.experiments.Experiment;
import org.irmi.bench.experiments.ExperimentResult;
import org.irmi.bench.experiments.RunContext;
import org.irmi.bench.experiments.RunLength;
import org.irmi.bench.experiments.internal.OrbKind;
import org.irmi.bench.experiments.internal.poison.PoisonExperiment;
import org.irmi.bench.experiments.internal.poison.Variant;

/**
 * The operator's ordinary day: DayTrader with nothing wrong, on plain JacORB and on I-RMI with each
 * SLA the poison experiment loads, in the poison experiment's conditions (the same backend, loads and
 * pinning), without a poison call. It measures what I-RMI costs when nothing is wrong (normal
 * throughput, page p99 and the backend's CPU per call, after the JIT has warmed) and whether ordinary
 * CPU contention makes the poison point open episodes or refuse anything (a CPU burner on the
 * backend's core, {@value #BURN_MILLIS} ms in every {@value #BURN_PERIOD_MILLIS} ms). Trials are
 * interleaved, the variants' order reversed every other repetition, so the machine's drift falls on
 * all alike.
 */
public final class NormalDayExperiment implements Experiment {

    static final long BURN_MILLIS = 2_000;
    static final long BURN_PERIOD_MILLIS = 10_000;
    /** The variant that also runs the contended window (the detector is the same for both I-RMI variants). */
    static final Variant CONTENDED_VARIANT = Variant.COST;
    /** Trials per cell in a full run, whatever the run's default (medians of at least 5). */
    static final int FULL_REPETITIONS = 5;

    /**
     * The phases of one trial, in milliseconds; the contended window runs on I-RMI only. After the
     * fixed warm-up, the trial waits up to {@code jitCapMillis} more for the backend's JIT to settle
     * ({@link JitWarmUp}; 0: it does not wait).
     */
    record Phases(long warmupMillis, long quietMillis, long contendedMillis, long jitCapMillis) {
    }

    @Override
    public String name() {
        return "normal-day";
    }

    @Override
    public ExperimentResult run(RunContext context) throws Exception {
        Phases phases = phases(context.length());
        List<Cell> plan = plan(context.length());
        ExperimentResult result = new ExperimentResult(name(), "A normal day: what I-RMI costs when nothing is wrong");
        PoisonExperiment.Pinning pinning = PoisonExperiment.Pinning.forThisMachine();
        if (pinning.backendCpus() == null) {
            result.note("The backend was NOT pinned to a core of its own (fewer than 2 CPUs or no taskset): no contended window.");
        }
        if (plan.stream().anyMatch(c -> c.variant().orb() == OrbKind.IRMI) && !OrbKind.irmiAvailable()) {
            result.note("I-RMI was not run: " + OrbKind.IRMI_ORB_CLASS + " is not on the class path.");
            plan = plan.stream().filter(c -> c.variant().orb() == OrbKind.PLAIN).toList();
        }
        // a full run's default (3) becomes 5 here; a count given with --repetitions is taken as it is
        int repetitions = context.length() == RunLength.FULL && !context.repetitionsGiven()
                ? FULL_REPETITIONS : context.repetitions();
        context.say("normal day: " + repetitions + " interleaved trial(s) of " + plan.size() + " cells; each trial: warm-up "
                + phases.warmupMillis() / 1000 + " s"
                + (phases.jitCapMillis() > 0 ? " and up to " + phases.jitCapMillis() / 1000 + " s more until the backend's JIT settles" : "")
                + ", quiet " + phases.quietMillis() / 1000 + " s"
                + (phases.contendedMillis() > 0 ? ", then on " + CONTENDED_VARIANT.label() + " " + phases.contendedMillis() / 1000 + " s beside a CPU burner" : ""));
        List<NormalDayRun> runs = new ArrayList<>();
        for (int rep = 1; rep <= repetitions; rep++) {
            List<Cell> order = new ArrayList<>(plan);
            if (rep % 2 == 0) {
                java.util.Collections.reverse(order);
            }
            for (Cell cell : order) {
                context.say("normal day, trial " + rep + ", " + cell.mix().label() + ", on " + cell.variant().label());
                runs.add(NormalDayTrial.run(context, cell.mix(), cell.variant(), rep, phases, pinning));
            }
        }
        NormalDayReport.write(context, result, runs, phases, pinning);
        return result;
    }

    /** One (load, variant) cell. */
    record Cell(PoisonExperiment.Mix mix, Variant variant) {
    }

    /**
     * Full runs: both loads, plain JacORB and I-RMI with each poison SLA. --quick and CI: the heavy
     * mix, plain and cost attribution. {@code -Dirmi.poison.mixes}, {@code -Dirmi.normalday.variants}
     * ({@code plain,cost,setdiff}) and {@code -Dirmi.orbs} narrow it.
     */
    static List<Cell> plan(RunLength length) {
        List<Cell> plan = new ArrayList<>();
        List<PoisonExperiment.Mix> mixes = length == RunLength.FULL ? List.of(PoisonExperiment.HEAVY, PoisonExperiment.PAPER)
                : List.of(PoisonExperiment.HEAVY);
        for (PoisonExperiment.Mix mix : mixes) {
            plan.add(new Cell(mix, Variant.PLAIN));
            plan.add(new Cell(mix, Variant.COST));
            if (length == RunLength.FULL) {
                plan.add(new Cell(mix, Variant.SET_DIFFERENCE));
            }
        }
        String only = System.getProperty("irmi.poison.mixes");
        String variants = System.getProperty("irmi.normalday.variants"); // e.g. plain,cost
        List<OrbKind> orbs = OrbKind.selected();
        return plan.stream().filter(c -> only == null || List.of(only.split(",")).contains(c.mix().name()))
                .filter(c -> variants == null || List.of(variants.split(",")).contains(c.variant().key()))
                .filter(c -> orbs.contains(c.variant().orb())).toList();
    }

    /**
     * Full: 45 s of warm-up, 120 s measured, 60 s contended; no wait for the JIT (the fourth value turns
     * one on, {@link JitWarmUp}). Why 120 s: at the paper's load a page's p99 is set by a few bursts (a
     * C2 compilation or a collection on 0.4 of a core stalls every page in flight), and the JIT does
     * not settle on either ORB for many minutes: one trial of each with 480 s measured after 45 s of
     * warm-up compiled 86 to 1,215 ms per 30 s on plain JacORB and 120 to 1,218 ms on I-RMI from start
     * to end, and the slowest page per 30 s ranged 18 to 57 ms on the same ORB. 30 s hold about 1,150
     * pages (the p99 is their 12th slowest, one burst's worth); 120 s about 4,600. CI: the direction only.
     */
    static Phases phases(RunLength length) {
        // warm-up,quiet,contended[,JIT cap] in seconds, for development
        String given = System.getProperty("irmi.normalday.phases");
        if (given != null) {
            String[] p = given.split(",");
            return new Phases(1000L * Long.parseLong(p[0].trim()), 1000L * Long.parseLong(p[1].trim()),
                    1000L * Long.parseLong(p[2].trim()), p.length > 3 ? 1000L * Long.parseLong(p[3].trim()) : 0);
        }
        return switch (length) {
            case FULL -> new Phases(45_000, 120_000, 60_000, 0);
            case QUICK -> new Phases(15_000, 10_000, 20_000, 0);
            case TINY -> new Phases(8_000, 5_000, 0, 0);
        };
    }
}
