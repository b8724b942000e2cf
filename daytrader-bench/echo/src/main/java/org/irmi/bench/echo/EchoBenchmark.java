package org.irmi.bench.echo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.irmi.bench.echo.internal.BenchmarkOptions;
import org.irmi.bench.echo.internal.CellSummary;
import org.irmi.bench.echo.internal.EchoReport;
import org.irmi.bench.echo.internal.LoadRun;
import org.irmi.bench.echo.internal.MachineFacts;
import org.irmi.bench.echo.internal.NativeClients;
import org.irmi.bench.echo.internal.ProcessSample;
import org.irmi.bench.echo.internal.ServerProcess;
import picocli.CommandLine;

/**
 * The closed-loop echo benchmark: stock JacORB against I-RMI (and any further variant made of ORB
 * properties, and omniORB's C++ server), in one run, loaded by the omniORB C++ client.
 *
 * <p>Each variant's server runs in its own process (a JVM, or the omniORB C++ server) for the whole run. After a warm-up, for every
 * payload and connection count (ascending), each variant gets {@code trials} short trials, the
 * variants taking turns (the order flips every round) so that noise from the shared machine falls
 * on all of them alike. A trial opens N connections, warms up, then measures; the report gives the
 * medians over the trials, the server's peak threads and resident memory from {@code /proc}, and
 * the established connections seen on the server's port.
 *
 * <p>Run with {@code ./irmi echo-bench [--quick]}; {@code ./irmi echo-bench --help} lists the options.
 */
public final class EchoBenchmark {

    private EchoBenchmark() {
    }

    /** Entry point. Exit code 2 on bad arguments, 1 when nothing could be measured. */
    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals(ConnectionsCell.MODE)) {
            // The many-connections cell: one NIO client thread instead of the omniORB client; its own options and --help.
            ConnectionsCell.main(java.util.Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        CommandLine cl = BenchmarkOptions.commandLine();
        BenchmarkOptions o;
        try {
            cl.parseArgs(args);
            if (cl.isUsageHelpRequested()) {
                cl.usage(System.out);
                return;
            }
            o = BenchmarkOptions.of(cl.getCommand());
        } catch (CommandLine.ParameterException | IllegalArgumentException e) {
            System.err.println("echo-bench: " + e.getMessage());
            cl.usage(System.err);
            System.exit(2);
            return;
        }
        String command = ("./irmi echo-bench " + String.join(" ", args)).trim();
        Instant started = Instant.now();
        String loadBefore = MachineFacts.loadAverage();
        Optional<String> noToolchain = NativeClients.unavailableReason();
        if (noToolchain.isPresent()) {
            System.err.println("echo-bench: " + noToolchain.get());
            System.exit(1);
            return;
        }
        System.out.println("echo-bench: building the omniORB load client ...");
        NativeClients clients = NativeClients.build();
        List<String> loadClient = switch (o.client()) {
            case NIO -> nioLoadClient();
            case EPOLL -> List.of(clients.epollClient().toString());
            case OMNIORB -> List.of(clients.loadClient().toString());
        };

        List<String> notes = new ArrayList<>();
        long openFiles = MachineFacts.openFilesSoftLimit();
        List<Integer> connections = new ArrayList<>();
        for (int c : o.connections()) {
            // Each side holds c sockets plus its own files (jars, logs, epoll): keep 256 spare.
            if (c + 256 <= openFiles) {
                connections.add(c);
            } else {
                notes.add(c + " connections skipped: the open-files limit (ulimit -n) is " + openFiles
                        + "; raise it to at least " + (c + 256) + " (ulimit -n " + (c + 256) + ")");
            }
        }

        Path work = NativeClients.defaultDir().resolveSibling("echo-bench");
        Map<String, ServerProcess> servers = new java.util.concurrent.ConcurrentHashMap<>();
        // Ctrl-C must not leave server JVMs behind.
        Thread reaper = new Thread(() -> servers.values().forEach(ServerProcess::close), "echo-bench-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
        boolean failedToMeasure = false;
        Map<String, ProcessSample> idle = new LinkedHashMap<>();
        Map<String, Long> idleHeapKb = new LinkedHashMap<>();
        List<OrbVariant> measured = new ArrayList<>();
        try {
            for (OrbVariant v : o.variants()) {
                if (!v.isAvailable()) {
                    notes.add("variant " + v.name() + " not measured: " + v.orbClass() + (v.isJvm()
                            ? " is not on the class path" : " cannot be built here: " + NativeClients.INSTALL_HINT));
                    System.out.println("echo-bench: " + notes.get(notes.size() - 1));
                    continue;
                }
                try {
                    servers.put(v.name(), ServerProcess.start(v, o.variantSpecs().get(v.name()), clients, work,
                            Duration.ofSeconds(60)));
                    measured.add(v);
                } catch (RuntimeException e) {
                    notes.add("variant " + v.name() + " not measured: its server did not start: " + firstLine(e));
                    System.out.println("echo-bench: " + e.getMessage());
                }
            }
            if (measured.isEmpty()) {
                System.err.println("echo-bench: no variant could be measured");
                failedToMeasure = true;
                return;
            }
            for (OrbVariant v : measured) {
                ServerProcess s = servers.get(v.name());
                System.out.printf("echo-bench: warming up %s (pid %d, port %d) ...%n", v.name(), s.pid(), s.ior().port());
                warm(loadClient, s, 100, o.serverWarmup());
                warm(loadClient, s, 64 * 1024, o.serverWarmup().dividedBy(3));
                idle.put(v.name(), ProcessSample.of(s.pid()));
                idleHeapKb.put(v.name(), s.heapAfterGcKb());
            }

            Map<String, List<LoadRun.Trial>> done = new LinkedHashMap<>();
            Map<String, List<String>> failed = new LinkedHashMap<>();
            List<String> trialLines = new ArrayList<>();
            // Payload outermost, connections ascending: the RSS at the most connections with the smallest
            // payload is then not inflated by the heap growth that large payloads cause.
            for (int payload : o.payloads()) {
                for (int c : connections) {
                    for (int round = 0; round < o.trials(); round++) {
                        List<OrbVariant> order = new ArrayList<>(measured);
                        if (round % 2 == 1) {
                            java.util.Collections.reverse(order);
                        }
                        for (OrbVariant v : order) {
                            String key = key(v.name(), payload, c);
                            ServerProcess s = servers.get(v.name());
                            if (!s.isAlive()) {
                                failed.computeIfAbsent(key, k -> new ArrayList<>()).add("server process ended");
                                continue;
                            }
                            try {
                                LoadRun.Trial t = LoadRun.run(loadClient, s.iorFile(), s.pid(), s.ior().port(),
                                        s.statsFile(), c, payload, o.warmup(), o.measure(), List.of());
                                done.computeIfAbsent(key, k -> new ArrayList<>()).add(t);
                                // Reader threads and live heap are Java figures: "-" for the omniORB server.
                                String line = String.format("%-8s %6d B x %5d  round %d: %9.0f calls/s  p50 %7.3f ms"
                                                + "  p99 %7.3f ms  threads %5d (readers %5s)  RSS %4d MB  heap %4s MB  conns %5d"
                                                + "  errors %d  ramp %d ms  server CPU %.1f us/call",
                                        v.name(), payload, c, round + 1, t.result().callsPerSecond(),
                                        t.result().p50Micros() / 1e3, t.result().p99Micros() / 1e3, t.serverThreads(),
                                        v.isJvm() ? Integer.toString(t.readerThreads()) : "-", t.serverRssKb() / 1024,
                                        v.isJvm() ? Long.toString(t.heapAfterGcKb() / 1024) : "-",
                                        t.serverConnections(),
                                        t.result().failedCalls(), t.result().rampMillis(), t.serverCpuMicrosPerCall());
                                trialLines.add(line);
                                System.out.println(line);
                            } catch (RuntimeException e) {
                                failed.computeIfAbsent(key, k -> new ArrayList<>()).add(firstLine(e));
                                String line = String.format("%-8s %6d B x %4d  round %d: FAILED %s", v.name(), payload,
                                        c, round + 1, firstLine(e));
                                trialLines.add(line);
                                System.out.println(line);
                            }
                        }
                    }
                }
            }

            List<CellSummary> cells = new ArrayList<>();
            for (int payload : o.payloads()) {
                for (int c : connections) {
                    for (OrbVariant v : measured) {
                        String key = key(v.name(), payload, c);
                        cells.add(CellSummary.of(v.name(), payload, c, done.getOrDefault(key, List.of()),
                                failed.getOrDefault(key, List.of())));
                    }
                }
            }
            String loadAfter = MachineFacts.loadAverage();
            EchoReport report = new EchoReport(command, o, started, Instant.now(), loadBefore, loadAfter, openFiles,
                    measured, idle, idleHeapKb, cells, notes, trialLines);
            String markdown = report.render() + cpuSection(measured, o.payloads(), connections, done);
            System.out.println();
            System.out.println(report.renderTables());
            Path out = o.out();
            if (out.getParent() != null) {
                Files.createDirectories(out.getParent());
            }
            Files.writeString(out, markdown);
            System.out.println("echo-bench: wrote " + out.toAbsolutePath());
        } finally {
            servers.values().forEach(ServerProcess::close);
            servers.clear();
        }
        if (failedToMeasure) {
            System.exit(1);
        }
    }

    /**
     * Server CPU time per measured call: the median over the trials, the pooled figure (all trials'
     * CPU time over all their calls) and both as ratios to the first variant. Far less sensitive to
     * other work on the machine than calls/s, since it counts only the server's own CPU time.
     */
    static String cpuSection(List<OrbVariant> measured, List<Integer> payloads, List<Integer> connections,
                             Map<String, List<LoadRun.Trial>> done) {
        if (measured.isEmpty()) {
            return "";
        }
        String base = measured.get(0).name();
        StringBuilder sb = new StringBuilder();
        sb.append("\n## Server CPU time per call\n\n")
                .append("utime + stime of the server process (`/proc/<pid>/stat`, 10 ms ticks) between the load client's ")
                .append("start and end of measurement marks, over the calls measured in that interval. Ratios are to `")
                .append(base).append("`. The load client's CPU time per call and the machine's idle share (all CPUs, ")
                .append("`/proc/stat`) are taken between the same marks: the client shares the machine, so calls/s is ")
                .append("bounded by the CPU both take per call.\n\n")
                .append("| payload | conns | variant | CPU us/call (median) | trials (min-max) | pooled us/call | median ratio | pooled ratio ")
                .append("| client CPU us/call (median) | machine idle (median) |\n")
                .append("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (int payload : payloads) {
            for (int c : connections) {
                double[] baseFig = cpuFigures(done.getOrDefault(key(base, payload, c), List.of()));
                for (OrbVariant v : measured) {
                    double[] f = cpuFigures(done.getOrDefault(key(v.name(), payload, c), List.of()));
                    if (f[0] < 0) {
                        continue;
                    }
                    List<LoadRun.Trial> trials = done.getOrDefault(key(v.name(), payload, c), List.of());
                    double client = knownMedian(trials, LoadRun.Trial::clientCpuMicrosPerCall);
                    double idle = knownMedian(trials, LoadRun.Trial::machineIdle);
                    sb.append(String.format(java.util.Locale.ROOT, "| %s | %,d | %s | %.2f | %.2f-%.2f | %.2f | %s | %s | %s | %s |%n",
                            payload >= 1024 ? payload / 1024 + " KB" : payload + " B", c, v.name(), f[0], f[1], f[2], f[3],
                            baseFig[0] > 0 ? String.format(java.util.Locale.ROOT, "%.3f", f[0] / baseFig[0]) : "-",
                            baseFig[3] > 0 ? String.format(java.util.Locale.ROOT, "%.3f", f[3] / baseFig[3]) : "-",
                            client >= 0 ? String.format(java.util.Locale.ROOT, "%.2f", client) : "-",
                            idle >= 0 ? String.format(java.util.Locale.ROOT, "%.1f%%", 100 * idle) : "-"));
                }
            }
        }
        return sb.toString();
    }

    /** The median of {@code f} over the trials where it is known ({@code >= 0}); -1 if none. */
    private static double knownMedian(List<LoadRun.Trial> trials, java.util.function.ToDoubleFunction<LoadRun.Trial> f) {
        List<LoadRun.Trial> known = trials.stream().filter(t -> f.applyAsDouble(t) >= 0).toList();
        return known.isEmpty() ? -1 : CellSummary.median(known, f);
    }

    /** {median, min, max, pooled} server CPU us per call over the trials that have it; all -1 if none. */
    static double[] cpuFigures(List<LoadRun.Trial> trials) {
        List<Double> per = new ArrayList<>();
        long nanos = 0;
        long calls = 0;
        for (LoadRun.Trial t : trials) {
            if (t.serverCpuMicrosPerCall() >= 0) {
                per.add(t.serverCpuMicrosPerCall());
                nanos += t.serverCpuNanos();
                calls += t.result().calls();
            }
        }
        if (per.isEmpty()) {
            return new double[] {-1, -1, -1, -1};
        }
        java.util.Collections.sort(per);
        int n = per.size();
        double median = n % 2 == 1 ? per.get(n / 2) : (per.get(n / 2 - 1) + per.get(n / 2)) / 2;
        return new double[] {median, per.get(0), per.get(n - 1), nanos / 1e3 / calls};
    }

    /** The command that runs {@link NioLoadClient} in a JVM of its own, on this JVM's class path. */
    private static List<String> nioLoadClient() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return List.of(java, "-Xmx512m", "-XX:+UseParallelGC", "-cp", System.getProperty("java.class.path"),
                NioLoadClient.class.getName());
    }

    private static void warm(List<String> loadClient, ServerProcess s, int payload, Duration time) {
        try {
            LoadRun.run(loadClient, s.iorFile(), -1, s.ior().port(), null, 16, payload, Duration.ZERO, time,
                    List.of());
        } catch (RuntimeException e) {
            System.out.println("echo-bench: warm-up of " + s.variantSpec() + " failed: " + firstLine(e));
        }
    }

    private static String key(String variant, int payload, int connections) {
        return variant + "/" + payload + "/" + connections;
    }

    private static String firstLine(Throwable e) {
        String m = String.valueOf(e.getMessage()).strip().replace("\n", " | ");
        return m.length() <= 300 ? m : m.substring(0, 300) + " ...";
    }
}
