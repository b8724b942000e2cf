package org.irmi.bench.experiments.internal.poison;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.irmi.bench.daytrader.AuditReport;
import org.irmi.bench.daytrader.DayTraderDeployment;
import org.irmi.bench.daytrader.Httperf;
import org.irmi.bench.daytrader.HttperfResult;
import org.irmi.bench.daytrader.HttperfWorkload;
import org.irmi.bench.daytrader.SessionLog;
import org.irmi.bench.daytrader.internal.ScenarioMix;
import org.irmi.bench.experiments.RunContext;
import org.irmi.bench.experiments.internal.ProgressBar;

/**
 * One trial: DayTrader started for one variant, httperf replaying the mix's session log, the
 * poison called {@code episodes} times, probes between episodes, then the series and the audit.
 *
 * <p>The probe: from {@value #PROBE_DELAY_MILLIS} ms after a poison call returns until 1 s before
 * the next one (or the end), a 1 ms poison call every {@value #PROBE_PERIOD_MILLIS} ms; the first
 * one rejected tells after which episode the point filters the operation. Probes stay out of the
 * episodes, so they are never in the S1 or S2 snapshots.
 */
final class PoisonTrial {

    static final long PROBE_PERIOD_MILLIS = 500;
    static final long PROBE_DELAY_MILLIS = 2500;

    private PoisonTrial() {
    }

    static PoisonRun run(RunContext context, PoisonExperiment.Mix mix, Variant variant, int rep, PoisonExperiment.Phases phases,
                         List<String> backendJvmArgs, PoisonExperiment.Pinning pinning) throws Exception {
        String tag = "poison-" + mix.name() + "-" + variant.key() + "-" + rep;
        Path work = context.resultsDir().resolve(tag);
        Files.createDirectories(work);
        ProgressBar bar = new ProgressBar(context.terminal());
        String label = variant.label() + " " + rep;
        try (DayTraderDeployment dt = DayTraderUnderTest.start(context, mix, variant, work, backendJvmArgs, pinning)) {
            long runMillis = phases.warmupMillis() + phases.steadyMillis() + phases.episodes() * phases.spacingMillis()
                    + phases.tailMillis();
            // Sessions sized for twice the run at the think time alone; httperf is stopped when the run is over.
            int pages = (int) Math.ceil(2.0 * runMillis / 1000 / Math.max(mix.thinkSeconds(), 0.005));
            Path sessions = SessionLog.write(work.resolve("sessions.txt"), ScenarioMix.STANDARD, mix.sessions(), pages, DayTraderUnderTest.USERS,
                    DayTraderUnderTest.QUOTES, 1000L * rep + mix.sessions());
            HttperfWorkload workload = Httperf.sessionLog("127.0.0.1", dt.webPort(), mix.sessions(), mix.thinkSeconds(), sessions)
                    .cpus(pinning.clientCpus()).build();
            AtomicReference<Object> httperf = new AtomicReference<>();
            long loadStart = System.currentTimeMillis();
            double loadAverage = RunContext.loadAverage();
            Thread load = DayTraderUnderTest.startHttperf(workload, runMillis, httperf);
            bar.during(label + " warm-up", phases.warmupMillis(), () -> !dt.isAlive() || httperf.get() != null);
            bar.during(label + " steady", phases.steadyMillis(), () -> !dt.isAlive() || httperf.get() != null);

            ConcurrentLinkedQueue<PoisonExperiment.Call> calls = new ConcurrentLinkedQueue<>();
            AtomicLong firstRejectedProbe = new AtomicLong();
            long firstEpisodeMillis = System.currentTimeMillis();
            for (int k = 0; k < phases.episodes(); k++) {
                long start = firstEpisodeMillis + k * phases.spacingMillis();
                long nextStart = k + 1 < phases.episodes() ? start + phases.spacingMillis() : loadStart + runMillis;
                if (k > 0) {
                    bar.during(label + " episode " + k, Math.max(0, start - System.currentTimeMillis()), () -> !dt.isAlive());
                }
                Thread episode = new Thread(() -> {
                    PoisonExperiment.Call call = call(dt, PoisonExperiment.POISON_MILLIS);
                    calls.add(call);
                    probe(dt, firstRejectedProbe, call.endMillis() + PROBE_DELAY_MILLIS, nextStart - 1000);
                }, "poison-" + k);
                episode.setDaemon(true);
                episode.start();
            }
            bar.during(label + " episode " + phases.episodes() + " and after",
                    Math.max(0, loadStart + runMillis - System.currentTimeMillis()), () -> !dt.isAlive());
            long endSecond = System.currentTimeMillis() / 1000;
            long waitUntil = System.currentTimeMillis() + 60_000;
            while (calls.size() < phases.episodes() && System.currentTimeMillis() < waitUntil) {
                Thread.sleep(100); // a poison call still running (plain JacORB lets it finish)
            }
            DayTraderUnderTest.interruptHttperf();
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
            long[] replies = {-1, -1, -1};
            if (httperf.get() instanceof HttperfResult r) {
                replies = new long[] {r.status2xx(), r.status4xx(), r.status5xx()};
                Files.writeString(work.resolve("httperf.txt"), r.commandLine() + "\n" + r.rawOutput());
            } else {
                context.say("note: httperf gave no report: " + httperf.get());
            }
            List<PoisonExperiment.Call> sorted = new ArrayList<>(calls);
            sorted.sort((a, b) -> Long.compare(a.startMillis(), b.startMillis()));
            Set<String> poisonOps = Set.of(PoisonExperiment.POISON_OPERATION);
            return new PoisonRun(mix, variant, rep, BackendSeries.parse(backendCsv, poisonOps), webSeries(webCsv),
                    loadStart / 1000, (loadStart + phases.warmupMillis()) / 1000 + 1, sorted, firstRejectedProbe.get(), replies,
                    audit, auditError, endSecond, loadAverage);
        }
    }

    /** The web tier's series: every page whose name mentions poison is the poison's own page. */
    private static BackendSeries webSeries(String csv) {
        Set<String> poison = new HashSet<>();
        for (String line : csv.split("\n")) {
            String[] c = line.split(",", -1);
            if (c.length > 1 && c[1].toLowerCase().contains("poison")) {
                poison.add(c[1]);
            }
        }
        return BackendSeries.parse(csv, poison);
    }

    static PoisonExperiment.Call call(DayTraderDeployment dt, long millis) {
        long start = System.currentTimeMillis();
        int status;
        try {
            HttpResponse<String> response = dt.post("poison", "millis=" + millis); // POST, the operator's token: DayTraderDeployment
            status = response.statusCode();
        } catch (Exception e) {
            status = -1;
        }
        return new PoisonExperiment.Call(start, System.currentTimeMillis(), status);
    }

    private static void probe(DayTraderDeployment dt, AtomicLong firstRejected, long fromMillis, long untilMillis) {
        try {
            Thread.sleep(Math.max(0, fromMillis - System.currentTimeMillis()));
            while (firstRejected.get() == 0 && System.currentTimeMillis() < untilMillis) {
                PoisonExperiment.Call probe = call(dt, 1);
                if (probe.rejected()) {
                    firstRejected.compareAndSet(0, probe.startMillis());
                    return;
                }
                Thread.sleep(PROBE_PERIOD_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
