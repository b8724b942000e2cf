package org.irmi.bench.experiments.internal.slowclient;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

import org.irmi.bench.daytrader.ChildJvm;
import org.irmi.bench.experiments.Experiment;
import org.irmi.bench.experiments.ExperimentResult;
import org.irmi.bench.experiments.RunContext;
import org.irmi.bench.experiments.internal.Children;
import org.irmi.bench.experiments.internal.OrbKind;
import org.irmi.bench.experiments.internal.ProgressBar;
import org.irmi.bench.experiments.internal.Samples;
import org.irmi.bench.experiments.internal.SlaFiles;
import org.irmi.orb.naming.OmniNames;

/**
 * The paper's slow-client experiment (section 3.1, Figure 3, Tables 1-2, Figures 4-5), with every
 * node in its own JVM and every call RMI-IIOP. Each trial: warm-up, an unloaded phase, then CPU
 * stress on the secondary's core. Trials are interleaved (plain JacORB, I-RMI, plain, I-RMI, ...)
 * so that a drift of the shared machine falls on both ORBs alike.
 *
 * <p>Keeping the nodes apart on two cores: the primary, the client and the event source are
 * pinned to CPU 0; the secondary and the stress process (8 busy threads, as the paper's
 * {@code stress} run) to CPU 1 (taskset). The secondary spends a fixed CPU time per event, so with
 * the stress it gets a small share of its core and falls far behind the 100 events/s, while the primary's
 * core is untouched.
 */
public final class SlowClientExperiment implements Experiment {

    static final int EVENT_BYTES = 512 * 1024;
    static final int EVENT_PERIOD_MILLIS = 10;
    static final int OBJECT_BYTES = 1024 * 1024;
    /** The paper's primary: "JVM memory was set to max. to 120MB". */
    static final String PRIMARY_HEAP = "-Xmx120m";
    /**
     * The collector the JVM picks itself for a process that sees one CPU (taskset), stated so that a
     * different machine does not change it.
     */
    static final String PRIMARY_GC = System.getProperty("irmi.slowclient.primaryGc", "-XX:+UseSerialGC");
    /** 2 ms an event: 20% of the secondary's core at 100 events/s unloaded; stressed it processed about 12 events/s. */
    static final int SECONDARY_CPU_MICROS_PER_EVENT = Integer.getInteger("irmi.slowclient.cpuMicros", 2000);
    static final int STRESS_THREADS = 8;
    static final int CLIENT_PERIOD_MILLIS = Integer.getInteger("irmi.slowclient.clientPeriodMillis", 20);
    static final int STAT_MILLIS = 250;
    static final String PRIMARY_CPUS = "0";
    static final String SECONDARY_CPUS = "1";
    /** Where the reroute trial's replica secondary binds itself (slow-client-reroute.yaml's {@code replicas}). */
    static final String REPLICA_NAME = "irmi/slowclient.replica";

    @Override
    public String name() {
        return "slow-client";
    }

    @Override
    public ExperimentResult run(RunContext context) throws Exception {
        // 5 s at every length: the JIT compiles the marshalling paths and the source catches up its start-up backlog.
        long warmupMillis = context.length().millis(5_000, 5_000);
        long unloadedMillis = context.length().millis(20_000, 4_000);
        long stressedMillis = context.length().millis(40_000, 8_000);
        ExperimentResult result = new ExperimentResult(name(), "Slow client (Figure 3, Tables 1-2, Figures 4-5)");
        List<Setup> setups = new ArrayList<>();
        for (OrbKind orb : OrbKind.selected()) {
            if (orb == OrbKind.IRMI && !OrbKind.irmiAvailable()) {
                result.note("I-RMI was not run: " + OrbKind.IRMI_ORB_CLASS + " is not on the class path.");
                continue;
            }
            setups.add(orb == OrbKind.PLAIN ? Setup.PLAIN : Setup.IRMI);
        }
        if (setups.contains(Setup.IRMI) && rerouteWanted(context)) {
            if (OmniNames.available()) {
                setups.add(Setup.IRMI_REROUTE);
            } else {
                result.note("The reroute trial was not run: omniNames is not installed (" + OmniNames.EXECUTABLE + ").");
            }
        }
        List<Trial> trials = new ArrayList<>();
        for (int rep = 1; rep <= context.repetitions(); rep++) {
            for (Setup setup : setups) {
                context.say("slow-client trial " + rep + "/" + context.repetitions() + " on " + setup.label() + ": warm-up "
                        + warmupMillis / 1000 + " s, unloaded " + unloadedMillis / 1000 + " s, secondary stressed "
                        + stressedMillis / 1000 + " s");
                Trial trial;
                try {
                    trial = runOnce(context, setup, rep, warmupMillis, unloadedMillis, stressedMillis);
                } catch (IllegalStateException e) {
                    if (setup != Setup.IRMI_REROUTE) {
                        throw e;
                    }
                    // Beyond the paper and optional: a failed reroute trial (omniNames, the replica) must not cost the goals.
                    result.note("The reroute trial " + rep + " failed: " + e.getMessage());
                    continue;
                }
                context.say(String.format("  %s: RTT %.1f -> %.1f ms (%.2fx), GCs/100 calls %.1f -> %.1f (%.2fx),"
                                + " events lost %d, eliminated %d, rerouted %d%s", trial.label(), trial.unloadedRttMillis(),
                        trial.stressedRttMillis(), trial.rttRatio(), trial.unloadedGcPer100Calls(),
                        trial.stressedGcPer100Calls(), trial.gcRatio(), trial.eventsLost(), trial.total(Trial.P_ELIMINATED),
                        trial.rerouted(), trial.invalidReason() == null ? "" : " INVALID: " + trial.invalidReason()));
                trials.add(trial);
            }
        }
        new SlowClientReport(trials).writeTo(result);
        for (Setup setup : setups) {
            String key = setup.key();
            result.figure(key + ".stressedRttRatio", median(trials, setup, Trial::rttRatio));
            result.figure(key + ".stressedGcRatio", median(trials, setup, Trial::gcRatio));
            result.figure(key + ".stressedGcPercent", median(trials, setup, Trial::stressedGcPercent));
            result.figure(key + ".eventsLost", sum(trials, setup, Trial::eventsLost));
            result.figure(key + ".forwardsEliminated", sum(trials, setup, t -> t.total(Trial.P_ELIMINATED)));
            result.figure(key + ".forwardsRerouted", sum(trials, setup, Trial::rerouted));
            result.figure(key + ".eventsNeverProcessed", sum(trials, setup, Trial::eventsNeverProcessed));
        }
        return result;
    }

    /**
     * @return whether to add the reroute trial: {@code -Dirmi.slowclient.reroute=true|false}; by default at
     *     full length only (it adds a third of the run, which --quick and CI cannot afford)
     */
    private static boolean rerouteWanted(RunContext context) {
        String chosen = System.getProperty("irmi.slowclient.reroute");
        return chosen == null ? context.length() == org.irmi.bench.experiments.RunLength.FULL : Boolean.parseBoolean(chosen);
    }

    private static long sum(List<Trial> trials, Setup setup, java.util.function.ToLongFunction<Trial> figure) {
        return trials.stream().filter(t -> t.setup() == setup).mapToLong(figure).sum();
    }

    private static double median(List<Trial> trials, Setup setup, ToDoubleFunction<Trial> figure) {
        return org.irmi.bench.experiments.Spread.of(trials.stream().filter(t -> t.setup() == setup)
                .map(t -> figure.applyAsDouble(t)).toList()).median();
    }

    private Trial runOnce(RunContext context, Setup setup, int rep, long warmupMillis, long unloadedMillis,
                          long stressedMillis) throws Exception {
        String tag = "slow-client-" + setup.key() + "-" + rep;
        Path sla = setup.sla() == null ? null : SlaFiles.extract(context.resultsDir(), setup.sla());
        ProgressBar bar = new ProgressBar(context.terminal());
        try (Children children = new Children(context.logDir());
             OmniNames naming = setup.replica() ? OmniNames.start(context.logDir().resolve(tag + "-omninames")) : null) {
            // The secondary, client and source run plain JacORB in every trial: only the primary's ORB changes.
            List<String> base = new ArrayList<>(OrbKind.PLAIN.jvmOptions(null));
            base.add("-Xmx256m");
            ChildJvm secondary = children.start(ChildJvm.builder(tag + "-secondary", SecondaryMain.class)
                    .cpus(SECONDARY_CPUS).classPath(context.classPath()).jvmOptions(base)
                    .args(List.of(String.valueOf(SECONDARY_CPU_MICROS_PER_EVENT), String.valueOf(STAT_MILLIS))));
            String secondaryIor = secondary.awaitLine("IOR", 30_000);
            ChildJvm replica = null;
            List<String> primaryOptions = new ArrayList<>(setup.orb().jvmOptions(sla));
            if (naming != null) {
                // The replica stands for another machine; with two cores it can only share the primary's CPU 0
                // (CPU 1 is the stressed one).
                replica = children.start(ChildJvm.builder(tag + "-replica", SecondaryMain.class)
                        .cpus(PRIMARY_CPUS).classPath(context.classPath()).jvmOptions(base)
                        .args(List.of(String.valueOf(SECONDARY_CPU_MICROS_PER_EVENT), String.valueOf(STAT_MILLIS),
                                naming.corbaloc(), REPLICA_NAME)));
                replica.awaitLine("BOUND", 30_000);
                primaryOptions.add("-DORBInitRef.NameService=" + naming.corbaloc());
            }

            primaryOptions.addAll(List.of(PRIMARY_HEAP, "-Xms120m"));
            primaryOptions.addAll(List.of(PRIMARY_GC.split(" ")));
            ChildJvm primary = children.start(ChildJvm.builder(tag + "-primary", PrimaryMain.class)
                    .cpus(PRIMARY_CPUS).classPath(context.classPath()).jvmOptions(primaryOptions)
                    .args(List.of(secondaryIor, String.valueOf(OBJECT_BYTES), String.valueOf(STAT_MILLIS))));
            String primaryIor = primary.awaitLine("IOR", 30_000);

            ChildJvm client = children.start(ChildJvm.builder(tag + "-client", FetchClientMain.class)
                    .cpus(PRIMARY_CPUS).classPath(context.classPath()).jvmOptions(base)
                    .args(List.of(primaryIor, String.valueOf(STAT_MILLIS), String.valueOf(CLIENT_PERIOD_MILLIS))));
            ChildJvm source = children.start(ChildJvm.builder(tag + "-source", EventSourceMain.class)
                    .cpus(PRIMARY_CPUS).classPath(context.classPath()).jvmOptions(base)
                    .args(List.of(primaryIor, String.valueOf(EVENT_BYTES), String.valueOf(EVENT_PERIOD_MILLIS),
                            String.valueOf(STAT_MILLIS))));
            // The warm-up starts once the source and the client are calling (their JVMs take seconds to start).
            source.awaitLine("STAT", 30_000);
            client.awaitLine("STAT", 30_000);
            long origin = System.currentTimeMillis();
            double loadBefore = RunContext.loadAverage();
            String label = setup.label() + " #" + rep;
            phase(bar, children, label + " warm-up", warmupMillis);
            long unloadedFrom = System.currentTimeMillis();
            phase(bar, children, label + " unloaded", unloadedMillis);
            long stressFrom = System.currentTimeMillis();
            ChildJvm stress = children.start(ChildJvm.builder(tag + "-stress", BurnerMain.class)
                    .cpus(SECONDARY_CPUS).classPath(context.classPath()).jvmOptions(List.of("-Xmx32m"))
                    .args(List.of(String.valueOf(STRESS_THREADS))));
            stress.awaitLine("IOR", 30_000);
            phase(bar, children, label + " secondary stressed", stressedMillis);
            long end = System.currentTimeMillis();
            double loadAfter = RunContext.loadAverage();
            stress.stop(2000);
            client.stop(3000);
            source.stop(3000);
            primary.stop(3000);
            secondary.stop(3000);
            if (replica != null) {
                replica.stop(3000);
            }
            long settledFrom = stressFrom + stressedMillis / 4;
            Trial trial = new Trial(setup, rep, Samples.parse(primary.linesWith("STAT")),
                    Samples.parse(client.linesWith("STAT")), Samples.parse(secondary.linesWith("STAT")),
                    Samples.parse(replica == null ? List.of() : replica.linesWith("STAT")),
                    Samples.parse(source.linesWith("STAT")), origin, unloadedFrom, stressFrom, settledFrom, end,
                    loadBefore, loadAfter);
            if (trial.primary().isEmpty() || trial.client().isEmpty()) {
                throw new IllegalStateException("slow-client on " + label + ": no samples from the primary or the client; see "
                        + context.logDir());
            }
            SlowClientReport.writeCsv(context, tag, trial);
            return trial;
        }
    }

    private static void phase(ProgressBar bar, Children children, String label, long millis) throws InterruptedException {
        bar.during(label, millis, () -> children.firstDead() != null);
        ChildJvm dead = children.firstDead();
        if (dead != null) {
            throw new IllegalStateException(dead.name() + " died during '" + label + "'. Last output:\n" + dead.tail(20));
        }
    }
}
