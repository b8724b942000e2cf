package org.irmi.bench.experiments.internal.slowclient;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.irmi.bench.experiments.Chart;
import org.irmi.bench.experiments.Experiment;
import org.irmi.bench.experiments.ExperimentResult;
import org.irmi.bench.experiments.Goal;
import org.irmi.bench.experiments.RunContext;
import org.irmi.bench.experiments.Table;
import org.irmi.bench.experiments.internal.ChildJvm;
import org.irmi.bench.experiments.internal.Children;
import org.irmi.bench.experiments.internal.OrbKind;
import org.irmi.bench.experiments.internal.ProgressBar;
import org.irmi.bench.experiments.internal.Samples;
import org.irmi.bench.experiments.internal.SlaFiles;

/**
 * The paper's slow-client experiment (section 3.1, Figure 3, Tables 1-2, Figures 4-5), with every
 * node in its own JVM. Each ORB run: warm-up, an unloaded phase, then CPU stress on the
 * secondary's core.
 *
 * <p>Keeping the nodes apart on two cores: the primary, the client and the event source are
 * pinned to CPU 0; the secondary and the stress process (8 busy threads, as the paper's
 * {@code stress} run) to CPU 1. The secondary spends a fixed CPU time per event, so with the
 * stress it gets about 1/9 of its core and slows down about nine-fold, while the primary's core
 * is untouched.
 */
public final class SlowClientExperiment implements Experiment {

    static final int EVENT_BYTES = 512 * 1024;
    static final int EVENT_PERIOD_MILLIS = 10;
    static final int OBJECT_BYTES = 1024 * 1024;
    static final String PRIMARY_HEAP = "-Xmx120m";
    static final String PRIMARY_GC = System.getProperty("irmi.slowclient.primaryGc", "-XX:+UseSerialGC");
    static final int QUEUE_CAPACITY = Integer.getInteger("irmi.slowclient.queue", 150);
    static final int SECONDARY_CPU_MICROS_PER_EVENT = Integer.getInteger("irmi.slowclient.cpuMicros", 2000);
    static final int STRESS_THREADS = 8;
    static final int CLIENT_PERIOD_MILLIS = Integer.getInteger("irmi.slowclient.clientPeriodMillis", 20);
    static final int STAT_MILLIS = 250;
    static final String PRIMARY_CPUS = "0";
    static final String SECONDARY_CPUS = "1";

    // Primary STAT columns.
    static final int P_IN = 1;
    static final int P_OUT = 2;
    static final int P_FETCHES = 3;
    static final int P_QUEUED = 4;
    static final int P_GC = 5;
    static final int P_GC_MILLIS = 6;
    static final int P_DROPPED = 9;
    // Client STAT columns.
    static final int C_CALLS = 1;
    static final int C_RTT_MICROS = 2;

    @Override
    public String name() {
        return "slow-client";
    }

    @Override
    public ExperimentResult run(RunContext context) throws Exception {
        long warmupMillis = context.length().millis(5_000, 3_000);
        long unloadedMillis = context.length().millis(20_000, 4_000);
        long stressedMillis = context.length().millis(40_000, 8_000);
        ExperimentResult result = new ExperimentResult(name(), "Slow client (Figure 3, Tables 1-2, Figures 4-5)");
        Map<OrbKind, Run> runs = new LinkedHashMap<>();
        for (OrbKind orb : OrbKind.selected()) {
            if (orb == OrbKind.IRMI && !OrbKind.irmiAvailable()) {
                result.note("I-RMI was not run: " + OrbKind.IRMI_ORB_CLASS + " is not on the class path.");
                continue;
            }
            context.say("slow-client on " + orb.label() + ": warm-up " + warmupMillis / 1000 + " s, unloaded "
                    + unloadedMillis / 1000 + " s, secondary stressed " + stressedMillis / 1000 + " s");
            runs.put(orb, runOnce(context, orb, warmupMillis, unloadedMillis, stressedMillis));
        }
        report(context, result, runs);
        return result;
    }

    /** Everything measured in one ORB run, with the wall times that cut its phases. */
    record Run(OrbKind orb, Samples primary, Samples client, Samples secondary, long origin,
               long unloadedFrom, long stressFrom, long settledFrom, long end, double loadBefore, double loadAfter) {

        /** Forwards the worker completed that never reached the secondary (short-circuited or failed). */
        long forwardsNotDelivered() {
            if (secondary.isEmpty()) {
                return 0;
            }
            long out = primary.rows().get(primary.rows().size() - 1)[P_OUT];
            long processed = secondary.rows().get(secondary.rows().size() - 1)[1];
            return Math.max(0, out - processed);
        }

        double rttMillis(long from, long to) {
            long calls = client.delta(C_CALLS, from, to);
            return calls == 0 ? Double.NaN : client.delta(C_RTT_MICROS, from, to) / 1000.0 / calls;
        }

        double gcPer100Calls(long from, long to) {
            long calls = primary.delta(P_FETCHES, from, to);
            return calls == 0 ? Double.NaN : 100.0 * primary.delta(P_GC, from, to) / calls;
        }

        double gcPercent(long from, long to) {
            long span = primary.span(from, to);
            return span == 0 ? Double.NaN : 100.0 * primary.delta(P_GC_MILLIS, from, to) / span;
        }

        double callsPerSecond(long from, long to) {
            long span = client.span(from, to);
            return span == 0 ? Double.NaN : client.delta(C_CALLS, from, to) * 1000.0 / span;
        }

        double eventsPerSecond(long from, long to) {
            long span = primary.span(from, to);
            return span == 0 ? Double.NaN : primary.delta(P_IN, from, to) * 1000.0 / span;
        }

        /** @return why this run does not show what it should (the load was not applied), or null */
        String invalidReason() {
            double unloaded = eventsPerSecond(unloadedFrom, stressFrom);
            double stressed = eventsPerSecond(settledFrom, end);
            double nominal = 1000.0 / EVENT_PERIOD_MILLIS;
            if (!(unloaded >= nominal / 2 && stressed >= nominal / 2)) {
                return String.format("the primary received %.0f events/s unloaded and %.0f stressed instead of %.0f:"
                        + " the event source stalled (see logs/), so this run's figures do not show the experiment", unloaded,
                        stressed, nominal);
            }
            if (maxQueued(unloadedFrom, stressFrom) > QUEUE_CAPACITY / 2.0) {
                return String.format("the queue reached %.0f events before the stress began: the secondary could not keep"
                        + " up even unloaded (the machine was busy: load average %.1f), so there was no unloaded baseline",
                        maxQueued(unloadedFrom, stressFrom), loadBefore);
            }
            return null;
        }

        double maxQueued(long from, long to) {
            long max = 0;
            for (long[] row : primary.rows()) {
                if (row[0] >= from && row[0] <= to) {
                    max = Math.max(max, row[P_QUEUED]);
                }
            }
            return max;
        }
    }

    private Run runOnce(RunContext context, OrbKind orb, long warmupMillis, long unloadedMillis, long stressedMillis)
            throws Exception {
        String tag = "slow-client-" + orb.name().toLowerCase();
        Path sla = orb == OrbKind.IRMI ? SlaFiles.extract(context.resultsDir(), "slow-client.yaml") : null;
        ProgressBar bar = new ProgressBar(context.terminal());
        try (Children children = new Children()) {
            List<String> base = new ArrayList<>(OrbKind.PLAIN.jvmOptions(null));
            base.add("-Xmx256m");
            ChildJvm secondary = children.add(ChildJvm.start(tag + "-secondary", SECONDARY_CPUS, context.classPath(),
                    base, SecondaryMain.class, List.of(String.valueOf(SECONDARY_CPU_MICROS_PER_EVENT),
                            String.valueOf(STAT_MILLIS)), context.logDir()));
            String secondaryIor = secondary.await("IOR", 30_000);

            List<String> primaryOptions = new ArrayList<>(orb.jvmOptions(sla));
            primaryOptions.addAll(List.of(PRIMARY_HEAP, "-Xms120m"));
            primaryOptions.addAll(List.of(PRIMARY_GC.split(" ")));
            ChildJvm primary = children.add(ChildJvm.start(tag + "-primary", PRIMARY_CPUS, context.classPath(),
                    primaryOptions, PrimaryMain.class, List.of(secondaryIor, String.valueOf(QUEUE_CAPACITY),
                            String.valueOf(OBJECT_BYTES), String.valueOf(STAT_MILLIS)), context.logDir()));
            String primaryIor = primary.await("IOR", 30_000);

            ChildJvm client = children.add(ChildJvm.start(tag + "-client", PRIMARY_CPUS, context.classPath(),
                    base, FetchClientMain.class, List.of(primaryIor, String.valueOf(STAT_MILLIS), String.valueOf(CLIENT_PERIOD_MILLIS)), context.logDir()));
            ChildJvm source = children.add(ChildJvm.start(tag + "-source", PRIMARY_CPUS, context.classPath(),
                    base, EventSourceMain.class, List.of(primaryIor, String.valueOf(EVENT_BYTES),
                            String.valueOf(EVENT_PERIOD_MILLIS), String.valueOf(STAT_MILLIS)), context.logDir()));
            long origin = System.currentTimeMillis();
            double loadBefore = RunContext.loadAverage();
            String label = orb.label();
            phase(bar, children, label + " warm-up", warmupMillis);
            long unloadedFrom = System.currentTimeMillis();
            phase(bar, children, label + " unloaded", unloadedMillis);
            long stressFrom = System.currentTimeMillis();
            ChildJvm stress = children.add(ChildJvm.start(tag + "-stress", SECONDARY_CPUS, context.classPath(),
                    List.of("-Xmx32m"), BurnerMain.class, List.of(String.valueOf(STRESS_THREADS)), context.logDir()));
            stress.await("IOR", 30_000);
            phase(bar, children, label + " secondary stressed", stressedMillis);
            long end = System.currentTimeMillis();
            double loadAfter = RunContext.loadAverage();
            stress.stop(2000);
            client.stop(3000);
            source.stop(3000);
            primary.stop(3000);
            secondary.stop(3000);
            long settledFrom = stressFrom + stressedMillis / 4;
            Run run = new Run(orb, Samples.parse(primary.linesWith("STAT")), Samples.parse(client.linesWith("STAT")),
                    Samples.parse(secondary.linesWith("STAT")), origin, unloadedFrom, stressFrom, settledFrom, end,
                    loadBefore, loadAfter);
            if (run.primary().isEmpty() || run.client().isEmpty()) {
                throw new IllegalStateException("slow-client on " + label + ": no samples from the primary or the client; see "
                        + context.logDir());
            }
            writeCsv(context, tag, run);
            return run;
        }
    }

    private static void phase(ProgressBar bar, Children children, String label, long millis) throws InterruptedException {
        bar.during(label, millis, () -> children.firstDead() != null);
        ChildJvm dead = children.firstDead();
        if (dead != null) {
            throw new IllegalStateException(dead.name() + " died during '" + label + "'. Last output:\n" + dead.tail(20));
        }
    }

    private static void writeCsv(RunContext context, String tag, Run run) {
        List<String> lines = new ArrayList<>();
        for (long[] row : run.primary().rows()) {
            lines.add(String.format("%.3f,%d,%d,%d,%d,%d,%d,%d,%d,%d", (row[0] - run.origin()) / 1000.0,
                    row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8], row[9]));
        }
        context.writeCsv(tag + "-primary.csv",
                "t_s,events_in,forwards_out,fetches,queued,gc_count,gc_millis,heap_used_mb,forward_errors,events_dropped", lines);
        lines = new ArrayList<>();
        for (long[] row : run.client().rows()) {
            lines.add(String.format("%.3f,%d,%d,%d", (row[0] - run.origin()) / 1000.0, row[1], row[2], row[3]));
        }
        context.writeCsv(tag + "-client.csv", "t_s,calls,rtt_micros_sum,errors", lines);
        lines = new ArrayList<>();
        lines.add(String.format("unloaded_from_s,%.3f", (run.unloadedFrom() - run.origin()) / 1000.0));
        lines.add(String.format("stress_from_s,%.3f", (run.stressFrom() - run.origin()) / 1000.0));
        lines.add(String.format("settled_from_s,%.3f", (run.settledFrom() - run.origin()) / 1000.0));
        lines.add(String.format("end_s,%.3f", (run.end() - run.origin()) / 1000.0));
        context.writeCsv(tag + "-phases.csv", "phase,t_s", lines);
    }

    private void report(RunContext context, ExperimentResult result, Map<OrbKind, Run> runs) {
        Run plain = runs.get(OrbKind.PLAIN);
        Run irmi = runs.get(OrbKind.IRMI);
        Table table1 = Table.of("Table 1. Average round trip time for client calls (ms/call)",
                "Scenario", "Primary's ORB", "Avg RTT (ms)", "Client calls/s", "Events in/s", "Max queued events", "Paper");
        Table table2 = Table.of("Table 2. Primary server garbage collections per 100 client calls",
                "Scenario", "Primary's ORB", "GCs per 100 calls", "GC time (% of phase)", "Paper");
        for (Run run : runs.values()) {
            boolean isPlain = run.orb() == OrbKind.PLAIN;
            table1.row("Unloaded secondary", run.orb().label(), fmt(run.rttMillis(run.unloadedFrom(), run.stressFrom())),
                    fmt(run.callsPerSecond(run.unloadedFrom(), run.stressFrom())),
                    fmt(run.eventsPerSecond(run.unloadedFrom(), run.stressFrom())),
                    fmt(run.maxQueued(run.unloadedFrom(), run.stressFrom())), isPlain ? "35" : "-");
            table1.row("Secondary stress loaded", run.orb().label(), fmt(run.rttMillis(run.settledFrom(), run.end())),
                    fmt(run.callsPerSecond(run.settledFrom(), run.end())),
                    fmt(run.eventsPerSecond(run.settledFrom(), run.end())),
                    fmt(run.maxQueued(run.settledFrom(), run.end())), isPlain ? "80" : "35");
            table2.row("Unloaded secondary", run.orb().label(), fmt(run.gcPer100Calls(run.unloadedFrom(), run.stressFrom())),
                    fmt(run.gcPercent(run.unloadedFrom(), run.stressFrom())), isPlain ? "6" : "-");
            table2.row("Secondary stress loaded", run.orb().label(), fmt(run.gcPer100Calls(run.settledFrom(), run.end())),
                    fmt(run.gcPercent(run.settledFrom(), run.end())), isPlain ? "102" : "-");
        }
        for (Run run : runs.values()) {
            if (run.invalidReason() != null) {
                result.note("INVALID RUN on " + run.orb().label() + ": " + run.invalidReason() + ".");
            }
        }
        result.table(table1).table(table2);
        Table isolation = Table.of("What the primary's ORB did with the forwards", "Primary's ORB", "Events in",
                "Events dropped (queue full)", "Forwards completed (worker)", "Forwards not delivered (short-circuited/failed)",
                "Load average before/after");
        for (Run run : runs.values()) {
            long[] last = run.primary().rows().get(run.primary().rows().size() - 1);
            isolation.row(run.orb().label(), String.valueOf(last[P_IN]), String.valueOf(last[P_DROPPED]),
                    String.valueOf(last[P_OUT]), String.valueOf(run.forwardsNotDelivered()),
                    String.format("%.1f / %.1f", run.loadBefore(), run.loadAfter()));
        }
        result.table(isolation);
        long settleSeconds = plain == null ? 0 : (plain.settledFrom() - plain.stressFrom()) / 1000;
        result.note("Stressed figures are averaged from " + settleSeconds + " s after the stress starts to the end of the"
                + " phase (the first quarter is the transient, shown in the charts), for both ORBs alike.");

        Chart fig4 = Chart.of("slow-client-fig4-gc.png", "Figure 4. Garbage collections per second at the primary server",
                "time (s)", "GCs/s", false);
        Chart rtt = Chart.of("slow-client-rtt.png", "Client round trip time over time (1 s windows)",
                "time (s)", "avg RTT (ms)", false);
        for (Run run : runs.values()) {
            double[][] gc = run.primary().windowedRate(P_GC, run.origin(), 1000);
            fig4.line(run.orb().label(), gc[0], gc[1]);
            double[][] r = run.client().windowedRatio(C_RTT_MICROS, C_CALLS, run.origin(), 1000, 0.001);
            rtt.line(run.orb().label(), r[0], r[1]);
            Chart fig5 = Chart.of("slow-client-fig5-rates-" + run.orb().name().toLowerCase() + ".png",
                    "Figure 5. Call rates measured at the primary server (" + run.orb().label() + ", 2 s window; stress at "
                            + (run.stressFrom() - run.origin()) / 1000 + " s)", "time (s)", "calls/s", false);
            double[][] in = run.primary().windowedRate(P_IN, run.origin(), 2000);
            double[][] out = run.primary().windowedRate(P_OUT, run.origin(), 2000);
            fig5.line("incoming (push)", in[0], in[1]).line("outgoing (forward)", out[0], out[1])
                    .marker("secondary stressed", (run.stressFrom() - run.origin()) / 1000.0);
            result.chart(fig5);
        }
        result.chart(fig4).chart(rtt);

        for (Run run : runs.values()) {
            String key = run.orb() == OrbKind.PLAIN ? "plain" : "irmi";
            if (run.invalidReason() != null) {
                result.figure(key + ".stressedRttRatio", Double.NaN);
                result.figure(key + ".stressedGcRatio", Double.NaN);
                result.figure(key + ".stressedGcPercent", Double.NaN);
                continue;
            }
            result.figure(key + ".stressedRttRatio", run.rttMillis(run.settledFrom(), run.end())
                    / run.rttMillis(run.unloadedFrom(), run.stressFrom()));
            result.figure(key + ".stressedGcRatio", run.gcPer100Calls(run.settledFrom(), run.end())
                    / run.gcPer100Calls(run.unloadedFrom(), run.stressFrom()));
            result.figure(key + ".stressedGcPercent", run.gcPercent(run.settledFrom(), run.end()));
        }
        if (irmi == null) {
            result.goal(new Goal(name(), "stressed RTT on I-RMI <= 1.1x unloaded",
                    plain == null ? "-" : ratio(plain.rttMillis(plain.settledFrom(), plain.end()),
                            plain.rttMillis(plain.unloadedFrom(), plain.stressFrom())), "not run", false));
            result.goal(new Goal(name(), "GCs per 100 calls stressed on I-RMI <= 1.5x unloaded",
                    plain == null ? "-" : ratio(plain.gcPer100Calls(plain.settledFrom(), plain.end()),
                            plain.gcPer100Calls(plain.unloadedFrom(), plain.stressFrom())), "not run", false));
            return;
        }
        double irmiRtt = irmi.rttMillis(irmi.settledFrom(), irmi.end()) / irmi.rttMillis(irmi.unloadedFrom(), irmi.stressFrom());
        double irmiGc = irmi.gcPer100Calls(irmi.settledFrom(), irmi.end()) / irmi.gcPer100Calls(irmi.unloadedFrom(), irmi.stressFrom());
        result.goal(new Goal(name(), "stressed RTT on I-RMI <= 1.1x unloaded",
                plain == null ? "-" : ratio(plain.rttMillis(plain.settledFrom(), plain.end()),
                        plain.rttMillis(plain.unloadedFrom(), plain.stressFrom())),
                String.format("%.2fx", irmiRtt), irmiRtt <= 1.1 && irmi.invalidReason() == null));
        result.goal(new Goal(name(), "GCs per 100 calls stressed on I-RMI <= 1.5x unloaded",
                plain == null ? "-" : ratio(plain.gcPer100Calls(plain.settledFrom(), plain.end()),
                        plain.gcPer100Calls(plain.unloadedFrom(), plain.stressFrom())),
                String.format("%.2fx", irmiGc), irmiGc <= 1.5 && irmi.invalidReason() == null));
    }

    private static String ratio(double a, double b) {
        return String.format("%.2fx", a / b);
    }

    static String fmt(double value) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        return value >= 100 ? String.format("%.0f", value) : String.format("%.1f", value);
    }
}
