package org.irmi.bench.experiments.internal.poison;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.irmi.bench.daytrader.CpuQuota;
import org.irmi.bench.daytrader.DayTraderDeployment;
import org.irmi.bench.daytrader.OrbChoice;
import org.irmi.bench.experiments.RunContext;
import org.irmi.bench.experiments.internal.DashboardOption;
import org.irmi.bench.experiments.internal.OrbKind;
import org.irmi.bench.experiments.internal.SlaFiles;

/**
 * Starts DayTrader as the DayTrader experiments (poison, normal day) run it: the backend in the
 * conditions of the paper's 2004 server ({@link PoisonExperiment#BACKEND_JVM}, pinned to its own core,
 * under the mix's CPU quota), with the variant's SLA and a dashboard for I-RMI, and DayTrader's
 * default population. One place, so that every DayTrader experiment measures the same deployment.
 */
public final class DayTraderUnderTest {

    /**
     * DayTrader's default population (15,000 users, 10,000 quotes, up to 10 holdings each), as the
     * paper's Trade3 had: its live set is what every whole-heap collection marks. Scaled down to
     * 2,000 and 1,000, the backend's live set was about 16 MB and a collection
     * in a poison episode took 17 ms.
     */
    public static final int USERS = 15_000;
    public static final int QUOTES = 10_000;

    /**
     * More JVM options for every backend, space-separated (e.g. {@code -Dirmi.transport.inline_max_cost_us=0}, or a
     * flight recording): a way to measure a setting, or profile, in the experiments' conditions. Reports name it.
     */
    public static final String BACKEND_OPTIONS = "irmi.experiments.backendOptions";

    /**
     * The web tier's ORB for every variant ({@code jacorb} or {@code irmi}; default: the variant's): a way
     * to tell the backend's share of a difference from the web tier's client side. Reports name it.
     */
    public static final String WEB_ORB = "irmi.experiments.webOrb";

    private DayTraderUnderTest() {
    }

    /**
     * @param work the trial's own folder (logs, sessions)
     * @param backendJvmArgs the backend JVM's options before the ORB's ({@link PoisonExperiment#BACKEND_JVM})
     * @return the running deployment; close it to stop both tiers
     * @throws IllegalStateException when the mix needs a CPU quota and none can be made
     */
    public static DayTraderDeployment start(RunContext context, PoisonExperiment.Mix mix, Variant variant, Path work,
                                            List<String> backendJvmArgs, PoisonExperiment.Pinning pinning) throws Exception {
        List<String> backendArgs = new ArrayList<>(backendJvmArgs);
        backendArgs.add("-DOAIAddr=127.0.0.1");
        if (variant.slaFile() != null) {
            Path sla = SlaFiles.extract(context.resultsDir(), variant.slaFile());
            backendArgs.add("-D" + OrbKind.SLA_PROPERTY + "=" + sla);
            backendArgs.addAll(DashboardOption.jvmOptions(sla));
        }
        String extra = System.getProperty(BACKEND_OPTIONS, "").trim();
        if (!extra.isEmpty()) {
            backendArgs.addAll(List.of(extra.split("\\s+")));
        }
        CpuQuota quota = null;
        if (mix.backendCores() > 0) {
            CpuQuota.Outcome outcome = CpuQuota.create("daytrader-backend", mix.backendCores());
            if (outcome.quota().isEmpty()) {
                throw new IllegalStateException("the " + mix.name() + " mix needs the backend limited to " + mix.backendCores()
                        + " CPU, and no CPU quota could be made: " + outcome.reason());
            }
            quota = outcome.quota().get();
        }
        return DayTraderDeployment.builder()
                .orb(variant.orb() == OrbKind.IRMI ? OrbChoice.IRMI : OrbChoice.JACORB)
                .webOrb(System.getProperty(WEB_ORB) == null ? null : OrbChoice.parse(System.getProperty(WEB_ORB)))
                .users(USERS).quotes(QUOTES)
                .backendJvmArgs(backendArgs)
                .webJvmArgs(List.of("-Xmx512m", "-DOAIAddr=127.0.0.1"))
                .backendCpus(pinning.backendCpus()).backendQuota(quota).webCpus(pinning.clientCpus())
                .classPath(context.classPath())
                .workDir(work)
                .start();
    }

    /**
     * Runs httperf on its own thread for a run of {@code runMillis} (given three times that, and a
     * minute, before it is ended); its result, or the exception that ended it, goes to {@code outcome}.
     *
     * @return the started thread
     */
    public static Thread startHttperf(org.irmi.bench.daytrader.HttperfWorkload workload, long runMillis,
                                      java.util.concurrent.atomic.AtomicReference<Object> outcome) {
        Thread load = new Thread(() -> {
            try {
                outcome.set(org.irmi.bench.daytrader.Httperf.run(workload, java.time.Duration.ofMillis(3 * runMillis + 60_000)));
            } catch (Exception e) {
                outcome.set(e);
            }
        }, "httperf");
        load.start();
        return load;
    }

    /**
     * Ends the httperf this JVM started (our own child process, found by its command name) with
     * SIGINT, on which httperf stops and still prints its report.
     */
    public static void interruptHttperf() throws InterruptedException {
        List<ProcessHandle> found = ProcessHandle.current().descendants()
                .filter(p -> p.info().command().map(c -> c.endsWith("/httperf") || c.equals("httperf")).orElse(false))
                .toList();
        for (ProcessHandle p : found) {
            try {
                new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
            } catch (IOException e) {
                p.destroy();
            }
        }
    }

}
