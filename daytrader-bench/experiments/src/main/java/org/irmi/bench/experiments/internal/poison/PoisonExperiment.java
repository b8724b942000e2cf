package org.irmi.bench.experiments.internal.poison;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.irmi.bench.daytrader.AuditReport;
import org.irmi.bench.daytrader.DayTraderDeployment;
import org.irmi.bench.daytrader.Httperf;
import org.irmi.bench.daytrader.OrbChoice;
import org.irmi.bench.experiments.Chart;
import org.irmi.bench.experiments.Experiment;
import org.irmi.bench.experiments.ExperimentResult;
import org.irmi.bench.experiments.Goal;
import org.irmi.bench.experiments.RunContext;
import org.irmi.bench.experiments.RunLength;
import org.irmi.bench.experiments.Table;
import org.irmi.bench.experiments.internal.OrbKind;
import org.irmi.bench.experiments.internal.ProgressBar;
import org.irmi.bench.experiments.internal.SlaFiles;

/**
 * The paper's poison-message experiment (section 3.2, Figures 6-7) on DayTrader: the backend and
 * web tier in their own JVMs, httperf driving the web tier (the paper's 4 sessions with 0.1 s
 * think time, and in full runs a heavier mix), and after a steady phase the poison operation
 * (10 KB allocations in a tight loop for 4 s) called several times, some seconds apart. Each
 * mix runs on plain JacORB and then on I-RMI with {@code sla/poison.yaml}; the consistency audit
 * runs after each.
 *
 * <p>To time the identification, a probe calls the poison operation with a 1 ms budget every
 * 250 ms from the first episode on, until a probe is rejected: a rejected probe means the point
 * filters the operation from then on.
 */
public final class PoisonExperiment implements Experiment {

    static final String POISON_OPERATION = "poison";
    static final long POISON_MILLIS = 4000;
    static final long PROBE_PERIOD_MILLIS = 250;
    static final int BASELINE_SECONDS = 3;

    /** One load mix. */
    record Mix(String name, String label) {
    }

    static final Mix PAPER = new Mix("paper", "paper load: 4 sessions, 0.1 s think time");
    static final Mix HEAVY = new Mix("heavy", "heavier mix: 16 sessions, 0.02 s think time");

    /** The outcome of one poison call. */
    record Call(long startMillis, long endMillis, int status) {
        boolean rejected() {
            return status != 200;
        }
    }

    /** Everything measured in one (mix, ORB) run. */
    record Run(Mix mix, OrbKind orb, BackendSeries backend, BackendSeries web, long loadStartSecond, long steadyFromSecond,
               List<Call> episodes, long firstRejectedProbeMillis, AuditReport audit, String auditError, long endSecond,
               double loadAverage) {

        double steady() {
            return backend.throughput(steadyFromSecond, episodes.get(0).startMillis() / 1000);
        }

        /**
         * Throughput during episode k (its 4 s from its start), in percent of the throughput in the
         * {@value #BASELINE_SECONDS} s just before it: a local baseline, so the JIT warm-up still
         * going on and the load of other processes on this shared machine cancel out.
         */
        double episodePercent(int k) {
            long from = episodes.get(k).startMillis() / 1000;
            double baseline = backend.throughput(from - BASELINE_SECONDS, from);
            return baseline > 0 ? 100 * backend.throughput(from, from + POISON_MILLIS / 1000) / baseline : Double.NaN;
        }

        /** Mean over the episodes after the first; NaN when none could be measured. */
        double laterEpisodesPercent() {
            double sum = 0;
            int n = 0;
            for (int k = 1; k < episodes.size(); k++) {
                double p = episodePercent(k);
                if (!Double.isNaN(p)) {
                    sum += p;
                    n++;
                }
            }
            return n > 0 ? sum / n : Double.NaN;
        }

        double afterPercent() {
            long from = episodes.get(episodes.size() - 1).startMillis() / 1000 + POISON_MILLIS / 1000 + 2;
            return steady() > 0 ? 100 * backend.throughput(from, endSecond) / steady() : Double.NaN;
        }

        /** @return the episode (1-based) after which poison calls were rejected, or 0 when never */
        int identifiedInEpisode() {
            if (firstRejectedProbeMillis > 0) {
                for (int k = episodes.size() - 1; k >= 0; k--) {
                    if (episodes.get(k).startMillis() <= firstRejectedProbeMillis) {
                        return k + 1;
                    }
                }
            }
            for (int k = 1; k < episodes.size(); k++) {
                if (episodes.get(k).rejected()) {
                    return k;
                }
            }
            return 0;
        }

        double secondsToIdentify() {
            return firstRejectedProbeMillis > 0
                    ? (firstRejectedProbeMillis - episodes.get(0).startMillis()) / 1000.0 : Double.NaN;
        }

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
    }

    @Override
    public String name() {
        return "poison";
    }

    @Override
    public ExperimentResult run(RunContext context) throws Exception {
        RunLength length = context.length();
        long warmupMillis = length.millis(20_000, 8_000);
        long steadyMillis = length.millis(15_000, 5_000);
        long spacingMillis = length.millis(20_000, 7_000);
        long tailMillis = length.millis(10_000, 5_000);
        int episodes = 3; // identification in episode 1 or 2 still shows rejected later calls
        List<Mix> mixes = mixes(length);
        ExperimentResult result = new ExperimentResult(name(), "Poison message on DayTrader (Figures 6-7)");
        List<Run> runs = new ArrayList<>();
        for (Mix mix : mixes) {
            for (OrbKind orb : OrbKind.selected()) {
                if (orb == OrbKind.IRMI && !OrbKind.irmiAvailable()) {
                    result.note("I-RMI was not run: " + OrbKind.IRMI_ORB_CLASS + " is not on the class path.");
                    continue;
                }
                context.say("poison, " + mix.label() + ", on " + orb.label() + ": warm-up " + warmupMillis / 1000 + " s, steady "
                        + steadyMillis / 1000 + " s, then " + episodes + " poison calls " + spacingMillis / 1000 + " s apart, "
                        + tailMillis / 1000 + " s after");
                runs.add(runOnce(context, mix, orb, new long[] {warmupMillis, steadyMillis, spacingMillis, tailMillis}, episodes));
            }
        }
        PoisonReport.write(context, result, runs);
        return result;
    }

    /**
     * Full runs use both mixes. Shorter runs use the heavier mix only: on this machine the paper's
     * light load leaves enough spare CPU that the poison barely shows (see docs/experiments.md).
     * {@code -Dirmi.poison.mixes=paper,heavy} overrides.
     */
    static List<Mix> mixes(RunLength length) {
        String chosen = System.getProperty("irmi.poison.mixes", length == RunLength.FULL ? "paper,heavy" : "heavy");
        List<Mix> mixes = new ArrayList<>();
        for (String name : chosen.split(",")) {
            switch (name.trim()) {
                case "paper" -> mixes.add(PAPER);
                case "heavy" -> mixes.add(HEAVY);
                default -> throw new IllegalArgumentException("irmi.poison.mixes: unknown mix '" + name + "' (paper, heavy)");
            }
        }
        return mixes;
    }

    /**
     * @param phases warm-up, steady, spacing between poison calls, and the tail after the last
     *     episode's spacing, in milliseconds
     */
    private Run runOnce(RunContext context, Mix mix, OrbKind orb, long[] phases, int episodes) throws Exception {
        long warmupMillis = phases[0];
        long steadyMillis = phases[1];
        long spacingMillis = phases[2];
        long tailMillis = phases[3];
        String tag = "poison-" + mix.name() + "-" + orb.name().toLowerCase();
        Path work = context.resultsDir().resolve(tag);
        Files.createDirectories(work);
        // The backend runs a stop-the-world young collector (Serial GC), like the JVMs of the paper's
        // time (as the slow-client primary does): with G1 on a spare core the poison's garbage costs
        // this machine only 8-25% of throughput, too little for any throughput-drop detector to see
        // reliably, where the paper saw an 85% drop. Both ORBs get the same JVM.
        List<String> backendArgs = new ArrayList<>(List.of("-Xmx512m", "-XX:+UseSerialGC", "-DOAIAddr=127.0.0.1"));
        if (orb == OrbKind.IRMI) {
            backendArgs.add("-D" + OrbKind.SLA_PROPERTY + "=" + SlaFiles.extract(context.resultsDir(), "poison.yaml"));
        }
        ProgressBar bar = new ProgressBar(context.terminal());
        try (DayTraderDeployment dt = DayTraderDeployment.builder()
                .orb(orb == OrbKind.IRMI ? OrbChoice.IRMI : OrbChoice.JACORB)
                .users(2000).quotes(1000)
                .backendJvmArgs(backendArgs)
                .webJvmArgs(List.of("-Xmx512m", "-DOAIAddr=127.0.0.1"))
                .classPath(context.classPath())
                .workDir(work)
                .start()) {
            long runMillis = warmupMillis + steadyMillis + episodes * spacingMillis + tailMillis;
            // Sessions sized for twice the run: httperf's sessions are counted in calls, not time, and
            // the load must not end early; it is stopped when the run is over.
            int loadSeconds = (int) (2 * (runMillis + 999) / 1000) + 10;
            Httperf.Workload workload = mix == PAPER
                    ? Httperf.paperLoad("127.0.0.1", dt.webPort(), loadSeconds)
                    : Httperf.Workload.builder("127.0.0.1", dt.webPort()).uri("/daytrader/scenario")
                            .wsess(16, (int) Math.round(loadSeconds / 0.03), 0.02).rate(100).build();
            AtomicReference<Object> httperf = new AtomicReference<>();
            Thread load = new Thread(() -> {
                try {
                    httperf.set(Httperf.run(workload, Duration.ofSeconds(loadSeconds * 3L + 60)));
                } catch (Exception e) {
                    httperf.set(e);
                }
            }, "httperf");
            long loadStart = System.currentTimeMillis();
            load.start();
            double loadAverage = RunContext.loadAverage();
            bar.during(orb.label() + " warm-up", warmupMillis, () -> !dt.isAlive() || httperf.get() != null);
            bar.during(orb.label() + " steady", steadyMillis, () -> !dt.isAlive() || httperf.get() != null);

            ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();
            AtomicLong firstRejectedProbe = new AtomicLong();
            List<Thread> callers = new ArrayList<>();
            for (int k = 0; k < episodes; k++) {
                Thread poison = new Thread(() -> calls.add(call(dt, POISON_MILLIS)), "poison-" + k);
                poison.start();
                callers.add(poison);
                if (k == 0) {
                    Thread probe = new Thread(() -> probe(dt, firstRejectedProbe, loadStart + runMillis), "probe");
                    probe.setDaemon(true);
                    probe.start();
                }
                bar.during(orb.label() + " poison episode " + (k + 1), spacingMillis, () -> !dt.isAlive());
            }
            bar.during(orb.label() + " after", tailMillis, () -> !dt.isAlive());
            long endSecond = System.currentTimeMillis() / 1000;
            for (Thread caller : callers) {
                caller.join(60_000);
            }
            if (httperf.get() != null) {
                // It ended before the run did: its sessions were too short, or it failed.
                context.say("note: httperf ended before the run: " + httperf.get());
            }
            stopHttperf();
            load.join(30_000);
            long since = loadStart / 1000 - 1;
            String backendCsv = dt.timeSeriesCsv("backend", since);
            String webCsv = dt.timeSeriesCsv("web", since);
            Files.writeString(context.resultsDir().resolve(tag + "-backend.csv"), backendCsv);
            Files.writeString(context.resultsDir().resolve(tag + "-web.csv"), webCsv);
            AuditReport audit = null;
            String auditError = null;
            try {
                audit = dt.audit();
            } catch (java.io.IOException e) {
                auditError = e.getMessage().replaceAll("<[^>]*>", " ").replaceAll("\\s+", " ").trim();
            }
            List<Call> sorted = new ArrayList<>(calls);
            sorted.sort((a, b) -> Long.compare(a.startMillis(), b.startMillis()));
            Set<String> poisonOps = Set.of(POISON_OPERATION, "/daytrader/poison", "poison.page");
            return new Run(mix, orb, BackendSeries.parse(backendCsv, poisonOps), webSeries(webCsv), loadStart / 1000,
                    (loadStart + warmupMillis) / 1000 + 1, sorted, firstRejectedProbe.get(), audit, auditError, endSecond,
                    loadAverage);
        }
    }

    /** The web tier's series: every operation whose name mentions poison is the poison's own page. */
    private static BackendSeries webSeries(String csv) {
        java.util.Set<String> poison = new java.util.HashSet<>();
        for (String line : csv.split("\n")) {
            String[] c = line.split(",", -1);
            if (c.length > 1 && c[1].toLowerCase().contains("poison")) {
                poison.add(c[1]);
            }
        }
        return BackendSeries.parse(csv, poison);
    }

    /** Ends the httperf this JVM started (our own child process, found by its command name). */
    private static void stopHttperf() {
        ProcessHandle.current().descendants()
                .filter(p -> p.info().command().map(c -> c.endsWith("/httperf") || c.equals("httperf")).orElse(false))
                .forEach(ProcessHandle::destroy);
    }

    private static Call call(DayTraderDeployment dt, long millis) {
        long start = System.currentTimeMillis();
        int status;
        try {
            HttpResponse<String> response = dt.get("poison?millis=" + millis);
            status = response.statusCode();
        } catch (Exception e) {
            status = -1;
        }
        return new Call(start, System.currentTimeMillis(), status);
    }

    private static void probe(DayTraderDeployment dt, AtomicLong firstRejected, long untilMillis) {
        while (System.currentTimeMillis() < untilMillis) {
            Call probe = call(dt, 1);
            if (probe.rejected()) {
                firstRejected.set(probe.startMillis());
                return;
            }
            try {
                Thread.sleep(PROBE_PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** @return errors of normal operations, by name, for the report */
    static String describeErrors(Map<String, Long> errors) {
        return errors.isEmpty() ? "none" : errors.toString();
    }
}
