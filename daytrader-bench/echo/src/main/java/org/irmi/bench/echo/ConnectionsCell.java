package org.irmi.bench.echo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import org.irmi.bench.echo.internal.NioGiopClient;
import org.irmi.bench.echo.internal.ProcessSample;
import org.irmi.bench.echo.internal.ServerProcess;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The many-connections cell of the echo benchmark ({@code ./irmi echo-bench --nio-cell}): N connections
 * held by one NIO client thread ({@link NioGiopClient}), against each variant's JVM echo server in a
 * process of its own.
 *
 * <p>Per variant and trial: a fresh server; a warm-up (16 connections, closed loop); the heap after
 * a full GC ({@code jcmd PID GC.run}) with no connection; the ramp (open N, one 100 B call on each);
 * N idle connections for {@code --idle-ms}, then the heap after a full GC, RSS and threads, and
 * optionally a class histogram ({@code jmap -histo:live}); then a closed loop on all N connections.
 * Heap per idle connection = (heap with N idle - heap with none) / N.
 *
 * <p>Usage: {@code ./irmi echo-bench --nio-cell [--variants irmi,jacorb] [--connections 10000] [--trials 1]
 * [--idle-ms 3000] [--measure-ms 5000] [--histo DIR]}; {@code --help} lists the options. Exit status 0
 * when every trial ran, 2 on a bad option.
 */
@Command(name = "./irmi echo-bench --nio-cell", sortOptions = false, usageHelpAutoWidth = true,
        // One paragraph per element: picocli wraps each to the terminal's width (80 columns when piped).
        description = {"Holds N connections on one NIO client thread (GIOP 1.2 spoken directly) against each variant's "
                + "JVM echo server: the ramp, the heap per idle connection after a full GC, then a closed loop on all N. "
                + "Prints one line per variant and trial; the variants take turns, the order flipping every trial."},
        footer = {"", "Exit status: 0 every trial ran, 2 bad option. More: docs/benchmarks/echo.md."})
public final class ConnectionsCell implements Callable<Integer> {
    /** The first argument of {@code ./irmi echo-bench} that selects this cell; the rest are this cell's options. */
    public static final String MODE = "--nio-cell";

    @Option(names = "--variants", split = ",", paramLabel = "NAME,...", hideParamSyntax = true, defaultValue = "irmi,jacorb",
            description = "The JVM echo servers to measure: irmi, jacorb or both (default: ${DEFAULT-VALUE}).")
    private List<String> variants;

    @Option(names = "--connections", paramLabel = "N", defaultValue = "10000",
            description = "Connections to open and hold; the open-files limit must be at least N + 256 (default: ${DEFAULT-VALUE}).")
    private int connections;

    @Option(names = "--trials", paramLabel = "N", defaultValue = "1", description = "Trials per variant (default: ${DEFAULT-VALUE}).")
    private int trials;

    @Option(names = "--idle-ms", paramLabel = "MS", defaultValue = "3000",
            description = "How long the N connections stay idle before the heap is read (default: ${DEFAULT-VALUE}).")
    private long idleMs;

    @Option(names = "--measure-ms", paramLabel = "MS", defaultValue = "5000",
            description = "Recorded time of the closed loop on all N connections (default: ${DEFAULT-VALUE}).")
    private long measureMs;

    @Option(names = "--histo", paramLabel = "DIR",
            description = "Also write the server's class histogram (jmap -histo:live) with none and with N connections to DIR.")
    private Path histo;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Print this help and exit.")
    private boolean help;

    @Spec
    private CommandSpec spec;

    private ConnectionsCell() {
    }

    /** Entry point: {@code ./irmi echo-bench --nio-cell} without the {@code --nio-cell}. */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command; {@code execute(args)} runs the cell and returns the exit status. */
    public static CommandLine commandLine() {
        return new CommandLine(new ConnectionsCell());
    }

    @Override
    public Integer call() throws Exception {
        atLeast("--connections", connections, 1);
        atLeast("--trials", trials, 1);
        atLeast("--idle-ms", idleMs, 0);
        atLeast("--measure-ms", measureMs, 1);
        for (String v : variants) {
            if (!OrbVariants.builtIns().containsKey(v)) {
                throw new ParameterException(spec.commandLine(), "--variants: '" + v + "' is not a JVM echo server; use "
                        + String.join(" or ", OrbVariants.builtIns().keySet()));
            }
        }
        Path work = Files.createTempDirectory("echo-connections");
        for (int t = 1; t <= trials; t++) {
            List<String> order = new ArrayList<>(variants);
            if (t % 2 == 0) {
                java.util.Collections.reverse(order);
            }
            for (String v : order) {
                System.out.println(runOne(v, connections, t, idleMs, measureMs, histo, work));
            }
        }
        return 0;
    }

    private void atLeast(String option, long value, long min) {
        if (value < min) {
            throw new ParameterException(spec.commandLine(), option + " must be at least " + min + ", was " + value);
        }
    }

    private static String runOne(String variant, int n, int trial, long idleMs, long measureMs, Path histo, Path work)
            throws Exception {
        ServerProcess s = ServerProcess.start(variant, variant, work, Duration.ofSeconds(60));
        try {
            try (NioGiopClient warm = new NioGiopClient(s.ior(), 100)) {
                warm.ramp(16, 16, Duration.ofSeconds(5), Duration.ofSeconds(10));
                warm.closedLoop(Duration.ofSeconds(3), Duration.ofSeconds(2));
            }
            Thread.sleep(500);
            long heap0 = heapAfterFullGc(s);
            ProcessSample p0 = ProcessSample.of(s.pid());
            if (histo != null) {
                histogram(s.pid(), histo.resolve(variant + "-0.histo"));
            }
            try (NioGiopClient c = new NioGiopClient(s.ior(), 100)) {
                NioGiopClient.PhaseResult ramp = c.ramp(n, 128, Duration.ofSeconds(10), Duration.ofSeconds(180));
                Thread.sleep(idleMs);
                long heapN = heapAfterFullGc(s);
                ProcessSample pN = ProcessSample.of(s.pid());
                int established = ProcessSample.establishedConnections(s.ior().port());
                if (histo != null) {
                    histogram(s.pid(), histo.resolve(variant + "-" + n + ".histo"));
                }
                NioGiopClient.PhaseResult loop = c.closedLoop(Duration.ofMillis(measureMs), Duration.ofSeconds(30));
                ProcessSample pL = ProcessSample.of(s.pid());
                double perConn = (heapN - heap0) * 1024.0 / Math.max(1, ramp.connected());
                return String.format(java.util.Locale.ROOT,
                        "%-7s trial %d N=%d: ramp %d ms, connected %d, connect failures %d, ramp calls %d, ramp errors %d"
                                + " | idle: established %d, heap %d -> %d KiB (%.0f B/conn), RSS %d -> %d MB, threads %d -> %d"
                                + " | loop %d ms: %.0f calls/s, p50 %.2f ms, p99 %.2f ms, errors %d, open %d, threads %d, RSS %d MB"
                                + " | first errors %s %s",
                        variant, trial, n, ramp.millis(), ramp.connected(), ramp.connectFailures(), ramp.calls(),
                        ramp.errors(), established, heap0, heapN, perConn, p0.rssKb() / 1024, pN.rssKb() / 1024,
                        p0.threads(), pN.threads(), loop.millis(), loop.callsPerSecond(), loop.p50Micros() / 1e3,
                        loop.p99Micros() / 1e3, loop.errors(), loop.connected(), pL.threads(), pL.rssKb() / 1024,
                        ramp.firstErrors(), loop.firstErrors());
            }
        } finally {
            s.close();
        }
    }

    /** Runs a full GC in the server, then waits for its heap figures to show it. */
    private static long heapAfterFullGc(ServerProcess s) throws Exception {
        run(List.of(jdkTool("jcmd"), Long.toString(s.pid()), "GC.run"), null);
        Thread.sleep(800); // the server rewrites its stats file every 250 ms
        return s.heapAfterGcKb();
    }

    private static void histogram(long pid, Path out) throws Exception {
        Files.createDirectories(out.getParent());
        run(List.of(jdkTool("jmap"), "-histo:live", Long.toString(pid)), out);
    }

    private static String jdkTool(String name) {
        return Path.of(System.getProperty("java.home"), "bin", name).toString();
    }

    private static void run(List<String> cmd, Path out) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.redirectOutput(out != null ? ProcessBuilder.Redirect.to(out.toFile()) : ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("timed out: " + cmd);
        }
    }
}
