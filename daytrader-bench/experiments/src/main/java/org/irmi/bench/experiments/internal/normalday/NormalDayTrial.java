package org.irmi.bench.experiments.internal.normalday;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.irmi.bench.daytrader.AuditReport;
import org.irmi.bench.daytrader.ChildJvm;
import org.irmi.bench.daytrader.DayTraderDeployment;
import org.irmi.bench.daytrader.Httperf;
import org.irmi.bench.daytrader.HttperfResult;
import org.irmi.bench.daytrader.HttperfWorkload;
import org.irmi.bench.daytrader.LatencySummary;
import org.irmi.bench.daytrader.SessionLog;
import org.irmi.bench.daytrader.internal.ScenarioMix;
import org.irmi.bench.experiments.RunContext;
import org.irmi.bench.experiments.internal.CpuBurner;
import org.irmi.bench.experiments.internal.ProcessCpu;
import org.irmi.bench.experiments.internal.ProgressBar;
import org.irmi.bench.experiments.internal.poison.BackendSeries;
import org.irmi.bench.experiments.internal.poison.DayTraderUnderTest;
import org.irmi.bench.experiments.internal.poison.PoisonExperiment;
import org.irmi.bench.experiments.internal.poison.Variant;

/**
 * One trial of the normal day: DayTrader on one variant under httperf's replay of the standard mix,
 * no poison and no fault. After the warm-up, the quiet window: the backend's normal throughput, the
 * web tier's page latency and the backend's CPU per call. Then, on I-RMI with cost attribution (the
 * bundled SLA's method; both I-RMI variants open episodes with the same detector), the contended window: a CPU
 * burner on the backend's core ({@link CpuBurner}, the stand-in for a browser, a build or a backup
 * beside the service), counting the poison episodes it makes the backend open and the normal
 * operations refused.
 */
final class NormalDayTrial {

    private static final Pattern EPISODES = Pattern.compile("\"poison\"\\s*:\\s*\\{\\s*\"episodes\"\\s*:\\s*(\\d+)");
    private static final Pattern SUSPECTS = Pattern.compile("\"suspects\"\\s*:\\s*\\[([^\\]]*)\\]");

    private NormalDayTrial() {
    }

    static NormalDayRun run(RunContext context, PoisonExperiment.Mix mix, Variant variant, int rep, NormalDayExperiment.Phases phases,
                            PoisonExperiment.Pinning pinning) throws Exception {
        String tag = "normal-day-" + mix.name() + "-" + variant.key() + "-" + rep;
        Path work = context.resultsDir().resolve(tag);
        Files.createDirectories(work);
        boolean contend = variant == NormalDayExperiment.CONTENDED_VARIANT && phases.contendedMillis() > 0 && pinning.backendCpus() != null;
        long runMillis = phases.warmupMillis() + phases.jitCapMillis() + phases.quietMillis() + (contend ? phases.contendedMillis() : 0);
        ProgressBar bar = new ProgressBar(context.terminal());
        String label = "normal day, " + mix.name() + ", " + variant.label() + " " + rep;
        try (DayTraderDeployment dt = DayTraderUnderTest.start(context, mix, variant, work, PoisonExperiment.BACKEND_JVM, pinning)) {
            int pages = (int) Math.ceil(2.0 * runMillis / 1000 / Math.max(mix.thinkSeconds(), 0.005));
            Path sessions = SessionLog.write(work.resolve("sessions.txt"), ScenarioMix.STANDARD, mix.sessions(), pages,
                    DayTraderUnderTest.USERS, DayTraderUnderTest.QUOTES, 7000L * rep + mix.sessions());
            HttperfWorkload workload = Httperf.sessionLog("127.0.0.1", dt.webPort(), mix.sessions(), mix.thinkSeconds(), sessions)
                    .cpus(pinning.clientCpus()).build();
            AtomicReference<Object> httperf = new AtomicReference<>();
            double loadAverage = RunContext.loadAverage();
            Thread load = DayTraderUnderTest.startHttperf(workload, runMillis, httperf);
            long warmupStart = System.nanoTime();
            bar.during(label + " warm-up", phases.warmupMillis(), () -> !dt.isAlive() || httperf.get() != null);
            Boolean jitSettled = null;
            if (phases.jitCapMillis() > 0) {
                jitSettled = JitWarmUp.await(dt.backendPid(), phases.jitCapMillis(), bar, label,
                        () -> !dt.isAlive() || httperf.get() != null).settled();
            }
            double warmupSeconds = (System.nanoTime() - warmupStart) / 1e9;

            // The quiet window, on whole seconds of the backend's per-second series.
            waitForNextSecond();
            long quietFrom = System.currentTimeMillis() / 1000;
            dt.post("summary", "tier=web"); // POST: read and reset the web tier's latency summary
            double episodesBefore = episodes(dt);
            long cpuBefore = ProcessCpu.nanos(dt.backendPid());
            long webCpuBefore = ProcessCpu.nanos(dt.webPid());
            long jitBefore = ProcessCpu.compilerNanos(dt.backendPid());
            bar.during(label + " quiet", phases.quietMillis(), () -> !dt.isAlive() || httperf.get() != null);
            waitForNextSecond();
            long quietTo = System.currentTimeMillis() / 1000;
            long cpuAfter = ProcessCpu.nanos(dt.backendPid());
            long webCpuAfter = ProcessCpu.nanos(dt.webPid());
            long jitAfter = ProcessCpu.compilerNanos(dt.backendPid());
            double quietJit = jitBefore >= 0 && jitAfter >= 0 && quietTo > quietFrom
                    ? (jitAfter - jitBefore) / 1e6 / (quietTo - quietFrom) : Double.NaN;
            LatencySummary pages2 = allPages(dt.post("summary", "tier=web").body());
            double episodesQuiet = episodes(dt) - episodesBefore;

            double contendedSeconds = 0;
            double episodesContended = Double.NaN;
            double alarmsContended = Double.NaN;
            long contendedTo = quietTo;
            if (contend) {
                String stateBefore = state(dt);
                CpuBurner burner = CpuBurner.custom().cpus(pinning.backendCpus())
                        .burn(Duration.ofMillis(NormalDayExperiment.BURN_MILLIS))
                        .period(Duration.ofMillis(NormalDayExperiment.BURN_PERIOD_MILLIS)).build();
                try (ChildJvm running = burner.start(work.resolve("cpu-burner.log"))) {
                    bar.during(label + " contended", phases.contendedMillis(), () -> !dt.isAlive() || httperf.get() != null);
                }
                waitForNextSecond();
                contendedTo = System.currentTimeMillis() / 1000;
                contendedSeconds = contendedTo - quietTo;
                String stateAfter = state(dt);
                episodesContended = episodesOf(stateAfter) - episodesOf(stateBefore);
                alarmsContended = namedSuspects(stateAfter) - namedSuspects(stateBefore);
            }
            DayTraderUnderTest.interruptHttperf();
            load.join(30_000);
            long since = quietFrom - 1;
            String backendCsv = dt.timeSeriesCsv("backend", since);
            String webCsv = dt.timeSeriesCsv("web", since);
            Files.writeString(context.resultsDir().resolve(tag + "-backend.csv"), backendCsv);
            Files.writeString(context.resultsDir().resolve(tag + "-web.csv"), webCsv);
            if (httperf.get() instanceof HttperfResult r) {
                Files.writeString(work.resolve("httperf.txt"), r.commandLine() + "\n" + r.rawOutput());
            }
            BackendSeries backend = BackendSeries.parse(backendCsv, Set.of());
            BackendSeries web = BackendSeries.parse(webCsv, Set.of());
            double throughput = backend.throughput(quietFrom, quietTo);
            long quietCalls = backend.calls(quietFrom, quietTo);
            double cpuPerCall = quietCalls > 0 && cpuBefore >= 0 && cpuAfter >= 0 ? (cpuAfter - cpuBefore) / 1000.0 / quietCalls
                    : Double.NaN;
            double webCpuPerCall = quietCalls > 0 && webCpuBefore >= 0 && webCpuAfter >= 0
                    ? (webCpuAfter - webCpuBefore) / 1000.0 / quietCalls : Double.NaN;
            long auditProblems;
            try {
                AuditReport audit = dt.audit();
                auditProblems = audit.getBadBalances() + audit.getBadHoldings() + audit.getStuckOrders() + audit.getDuplicateIds();
            } catch (IOException e) {
                auditProblems = -1;
            }
            return new NormalDayRun(mix, variant, rep, throughput,
                    pages2 == null ? Double.NaN : pages2.getP99Micros() / 1000.0,
                    pages2 == null ? Double.NaN : pages2.getP50Micros() / 1000.0, cpuPerCall, webCpuPerCall,
                    backend.errors(quietFrom, quietTo) + web.errors(quietFrom, quietTo), episodesQuiet, contendedSeconds,
                    episodesContended, alarmsContended,
                    contend ? backend.errors(quietTo, contendedTo) + web.errors(quietTo, contendedTo) : 0,
                    contend ? backend.throughput(quietTo, contendedTo) : Double.NaN, auditProblems, loadAverage,
                    warmupSeconds, jitSettled, quietJit);
        }
    }

    /** @return the web tier's latency over every page, from its summary read-out; null when absent */
    private static LatencySummary allPages(String summary) {
        for (String line : summary.split("\n")) {
            if (line.startsWith("* ")) {
                return LatencySummary.parse(line);
            }
        }
        return null;
    }

    private static String state(DayTraderDeployment dt) {
        return dt.backendDashboardUrl().map(url -> {
            try {
                java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create(url + "api/state"))
                                .timeout(Duration.ofSeconds(10)).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                return r.statusCode() == 200 ? r.body() : "";
            } catch (IOException e) {
                return "";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "";
            }
        }).orElse("");
    }

    /** @return the poison episodes the backend has opened so far, NaN without a dashboard (plain JacORB) */
    private static double episodes(DayTraderDeployment dt) {
        return episodesOf(state(dt));
    }

    static double episodesOf(String state) {
        Matcher m = EPISODES.matcher(state);
        return m.find() ? Long.parseLong(m.group(1)) : Double.NaN;
    }

    /** @return the episode reports in the state that named at least one suspect */
    static double namedSuspects(String state) {
        if (state.isEmpty()) {
            return Double.NaN;
        }
        int reports = state.indexOf("\"episodeReports\"");
        if (reports < 0) {
            return 0;
        }
        Matcher m = SUSPECTS.matcher(state.substring(reports));
        int named = 0;
        while (m.find()) {
            if (!m.group(1).isBlank()) {
                named++;
            }
        }
        return named;
    }

    private static void waitForNextSecond() throws InterruptedException {
        Thread.sleep(1000 - System.currentTimeMillis() % 1000 + 5); // the per-second series rolls on whole seconds
    }

}
