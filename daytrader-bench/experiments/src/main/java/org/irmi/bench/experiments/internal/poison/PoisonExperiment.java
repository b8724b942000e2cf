package org.irmi.bench.experiments.internal.poison;

import java.util.ArrayList;
import java.util.List;

import org.irmi.bench.experiments.Experiment;
import org.irmi.bench.experiments.ExperimentResult;
import org.irmi.bench.experiments.RunContext;
import org.irmi.bench.experiments.RunLength;
import org.irmi.bench.experiments.internal.OrbKind;

/**
 * The paper's poison-message experiment (section 3.2, Figures 6-7) on DayTrader: the backend and
 * web tier in their own JVMs, httperf replaying DayTrader sessions generated from the standard mix
 * (the paper's 4 sessions with 0.1 s think time, and a heavier mix), and after a steady phase the
 * poison operation (10 KB allocations in a tight loop for 4 s) called several times, some seconds
 * apart. Each trial runs one variant: plain JacORB, I-RMI naming the poison by cost attribution,
 * or I-RMI with the paper's S1 - S2 set difference. Trials are interleaved (for each repetition:
 * every variant of every load in turn), so a drift of the shared machine falls on all alike.
 *
 * <p>The backend runs in the conditions of the paper's 2004 server, for every variant alike (see
 * {@link #BACKEND_JVM}): a core of its own, WebSphere 5.1's default maximum heap over DayTrader's
 * default population, and a stop-the-world collector that collects the poison's arrays only in
 * whole-heap collections.
 */
public final class PoisonExperiment implements Experiment {

    static final String POISON_OPERATION = "poison";
    static final long POISON_MILLIS = 4000;

    /**
     * The backend JVM of every variant. {@code -Xmx256m}: the default maximum heap of WebSphere
     * 5.1's application servers, where the paper's Trade3 ran. (J2SE 1.4.2's own default, 64 MB,
     * cannot hold DayTrader's default population, {@link DayTraderUnderTest#USERS}: it runs out of memory
     * while populating.) {@code -XX:+UseSerialGC -XX:PretenureSizeThreshold=8k}: the 2004 JVMs (IBM's 1.4.2 under
     * WebSphere 5.1) had a flat heap, where every collection was a stop-the-world mark-sweep of the
     * whole heap; HotSpot 17's nearest is the serial collector with arrays of 8 KB and more allocated
     * in the old generation, so the poison's 10 KB arrays fill the space that only a whole-heap
     * collection empties, while the normal requests' small objects still die young. With a modern
     * nursery the poison's garbage costs 0.3 ms young collections and plain JacORB loses nothing
     * measurable (docs/experiments.md).
     */
    public static final List<String> BACKEND_JVM = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:PretenureSizeThreshold=8k");

    /**
     * One load mix: httperf sessions replaying DayTrader pages with a think time between them, and
     * the backend's CPU share ({@code backendCores}, 0 = the whole pinned core).
     */
    public record Mix(String name, String label, int sessions, double thinkSeconds, double backendCores) {
    }

    /**
     * The paper's backend CPU, in cores of this machine: the paper's WebSphere ran on two 2.8 GHz
     * Xeons (NetBurst, 2003), each of which does about a fifth of the single-thread work of a core
     * of today, so two of them are about 0.4 of one core ({@code -Dirmi.poison.paperBackendCores}).
     * Without it, the backend pinned to a whole core of today idles through the paper's light load
     * and plain JacORB kept 67% of its throughput during the poison (docs/experiments.md).
     */
    public static final double PAPER_BACKEND_CORES = Double.parseDouble(System.getProperty("irmi.poison.paperBackendCores", "0.4"));

    public static final Mix PAPER = new Mix("paper", "paper load: 4 sessions, 0.1 s think time, backend on a 2004 server's CPU share",
            4, 0.1, PAPER_BACKEND_CORES);
    public static final Mix HEAVY = new Mix("heavy", "heavier mix: 16 sessions, 0.02 s think time, backend on a core of today",
            16, 0.02, 0);

    /** The outcome of one poison call (HTTP status; -1 when the call failed). */
    record Call(long startMillis, long endMillis, int status) {
        boolean rejected() {
            return status != 200;
        }
    }

    /** The phases of one trial, in milliseconds, and the number of poison episodes. */
    record Phases(long warmupMillis, long steadyMillis, int episodes, long spacingMillis, long tailMillis) {
    }

    /** CPUs for taskset: the backend's own core, and the other for the web tier and httperf; nulls do not pin. */
    public record Pinning(String backendCpus, String clientCpus) {
        public static Pinning forThisMachine() {
            return Runtime.getRuntime().availableProcessors() >= 2 && new java.io.File("/usr/bin/taskset").canExecute()
                    ? new Pinning("1", "0") : new Pinning(null, null);
        }
    }

    /** One (load, variant) cell of the plan. */
    record Cell(Mix mix, Variant variant) {
    }

    @Override
    public String name() {
        return "poison";
    }

    @Override
    public ExperimentResult run(RunContext context) throws Exception {
        Phases phases = phases(context.length());
        List<Cell> plan = plan(context.length());
        ExperimentResult result = new ExperimentResult(name(), "Poison message on DayTrader (Figures 6-7)");
        Pinning pinning = Pinning.forThisMachine();
        if (pinning.backendCpus() == null) {
            result.note("The backend was NOT pinned to a core of its own (fewer than 2 CPUs or no taskset): the harm on plain"
                    + " JacORB is not in the paper's conditions.");
        }
        if (plan.stream().anyMatch(c -> c.variant().orb() == OrbKind.IRMI) && !OrbKind.irmiAvailable()) {
            result.note("I-RMI was not run: " + OrbKind.IRMI_ORB_CLASS + " is not on the class path.");
            plan = plan.stream().filter(c -> c.variant().orb() == OrbKind.PLAIN).toList();
        }
        context.say("poison: " + context.repetitions() + " interleaved trial(s) of " + plan.size() + " cells; each trial: warm-up "
                + phases.warmupMillis() / 1000 + " s, steady " + phases.steadyMillis() / 1000 + " s, " + phases.episodes()
                + " poison calls " + phases.spacingMillis() / 1000.0 + " s apart, " + phases.tailMillis() / 1000 + " s after");
        List<PoisonRun> runs = new ArrayList<>();
        for (int rep = 1; rep <= context.repetitions(); rep++) {
            for (Cell cell : plan) {
                context.say("poison, trial " + rep + ", " + cell.mix().label() + ", on " + cell.variant().label());
                runs.add(PoisonTrial.run(context, cell.mix(), cell.variant(), rep, phases, BACKEND_JVM, pinning));
            }
        }
        PoisonReport.write(context, result, runs, pinning);
        return result;
    }

    /**
     * Full runs: both mixes with all three variants. --quick: the heavier mix, three variants. CI: the
     * heavier mix, plain and cost attribution. {@code -Dirmi.poison.mixes=paper,heavy} and
     * {@code -Dirmi.orbs=plain} narrow the plan.
     */
    static List<Cell> plan(RunLength length) {
        List<Cell> plan = new ArrayList<>();
        plan.add(new Cell(HEAVY, Variant.PLAIN));
        plan.add(new Cell(HEAVY, Variant.COST));
        if (length != RunLength.TINY) {
            plan.add(new Cell(HEAVY, Variant.SET_DIFFERENCE));
        }
        if (length == RunLength.FULL) {
            plan.add(new Cell(PAPER, Variant.PLAIN));
            plan.add(new Cell(PAPER, Variant.COST));
            plan.add(new Cell(PAPER, Variant.SET_DIFFERENCE));
        }
        String mixes = System.getProperty("irmi.poison.mixes");
        List<OrbKind> orbs = OrbKind.selected();
        return plan.stream().filter(c -> mixes == null || List.of(mixes.split(",")).contains(c.mix().name()))
                .filter(c -> orbs.contains(c.variant().orb())).toList();
    }

    /**
     * Three episodes in full runs, two in --quick and CI (the 2-minute budget): set difference needs
     * at least two, and the throughput goal is read on the episodes after the first. The spacing leaves the 3 s local baseline of the
     * next episode clear of the previous one and of the probes.
     */
    static Phases phases(RunLength length) {
        return switch (length) {
            case FULL -> new Phases(10_000, 5_000, 3, 9_500, 3_000);
            case QUICK, TINY -> new Phases(6_000, 3_000, 2, 8_500, 1_000);
        };
    }
}
