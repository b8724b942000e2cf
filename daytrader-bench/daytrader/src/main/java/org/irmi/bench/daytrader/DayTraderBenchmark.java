package org.irmi.bench.daytrader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The DayTrader benchmark: throughput (replies/s, from httperf) and p50/p99 of the scenario page
 * (recorded in the web tier with HdrHistogram) under the standard mix with no faults, I-RMI against
 * stock JacORB in one run, at the paper's load (4 sessions, 0.1 s think time) and at saturation
 * (many sessions, no think time). Both deployments run side by side; after a warm-up each load
 * runs {@code rounds} times per ORB, the ORBs taking turns, and each run ends with the audit. The
 * report quotes medians over runs and the I-RMI/JacORB ratios, and is written to
 * {@code results/daytrader.md} under the working directory, or with {@code --update-docs} to the
 * documentation page {@code docs/benchmarks/daytrader.md} of the checkout it runs in.
 *
 * <pre>
 * java -cp ... org.irmi.bench.daytrader.DayTraderBenchmark [--quick] [--rounds 5] [--seconds 15] [--warmup 15]
 *      [--sessions 32] [--users 15000] [--quotes 10000] [--sla FILE] [--out FILE | --update-docs]
 * </pre>
 * {@code --help} lists the options. {@code --sla FILE}: I-RMI's backend loads this SLA
 * ({@code irmi.sla}), as an operator's would; the report names it. Without it I-RMI runs with none.
 *
 * <p>Exit status: 0 with the report written, 1 when a run failed, 2 on a bad option.
 */
@Command(name = "DayTraderBenchmark", sortOptions = false, usageHelpAutoWidth = true,
        // One paragraph per element: picocli wraps each to the terminal's width (80 columns when piped).
        description = {"Measures DayTrader on I-RMI against stock JacORB, side by side, at the paper's load (4 sessions, "
                + "0.1 s think time) and at saturation: httperf's replies/s and the scenario page's p50/p99, the ORBs "
                + "taking turns run by run, each run ending with the audit.",
                "Writes results/daytrader.md under the working directory, or docs/benchmarks/daytrader.md with "
                + "--update-docs, or FILE with --out."},
        footer = {"", "Exit status: 0 report written, 1 a run failed, 2 bad option. More: docs/daytrader.md#benchmark."})
public final class DayTraderBenchmark implements Callable<Integer> {
    @Option(names = "--quick", description = "The short run: fewer, shorter rounds on a smaller database.")
    private boolean quick;

    @Option(names = "--rounds", paramLabel = "N", description = "Runs per load and ORB (default: 5, 2 with --quick).")
    private Integer rounds;

    @Option(names = "--seconds", paramLabel = "S", description = "About how long each run lasts, at least 5 (default: 15, 8 with --quick).")
    private Integer seconds;

    @Option(names = "--warmup", paramLabel = "S", description = "About how long the warm-up at saturation lasts per ORB (default: 15, 8 with --quick).")
    private Integer warmup;

    @Option(names = "--sessions", paramLabel = "N", defaultValue = "32",
            description = "Concurrent httperf sessions at saturation (default: ${DEFAULT-VALUE}).")
    private int sessions;

    @Option(names = "--users", paramLabel = "N", description = "User accounts per deployment, at least 10 (default: 15000, 2000 with --quick).")
    private Integer users;

    @Option(names = "--quotes", paramLabel = "N", description = "Quote symbols per deployment, at least 10 (default: 10000, 1000 with --quick).")
    private Integer quotes;

    @Option(names = "--sla", paramLabel = "FILE", description = "The SLA I-RMI's backend loads (irmi.sla); the report names it (default: none).")
    private Path slaOption;

    @Option(names = "--out", paramLabel = "FILE", description = "The Markdown report to write.")
    private String outOption;

    @Option(names = "--update-docs", description = "Write the documentation page docs/benchmarks/daytrader.md (not with --out).")
    private boolean updateDocs;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Print this help and exit.")
    private boolean help;

    @Spec
    private CommandSpec spec;

    private DayTraderBenchmark() {
    }

    /** One load's figures on one ORB in one round. */
    record Sample(double throughput, double p50Ms, double p99Ms, long replies, long status5xx, long errors, boolean valid,
                  boolean consistent, String audit, double loadAverage) {
    }

    public static void main(String[] argv) {
        System.exit(commandLine().execute(argv));
    }

    /** The command; {@code execute(args)} runs the benchmark and returns the exit status. */
    public static CommandLine commandLine() {
        return new CommandLine(new DayTraderBenchmark());
    }

    /** {@code value} when given, else {@code fallback}; a {@link ParameterException} (exit 2) below {@code min}. */
    private int atLeast(String option, Integer value, int fallback, int min) {
        int v = value != null ? value : fallback;
        if (v < min) {
            throw new ParameterException(spec.commandLine(), option + " must be at least " + min + ", was " + v);
        }
        return v;
    }

    @Override
    public Integer call() throws Exception {
        String[] argv = spec.commandLine().getParseResult().originalArgs().toArray(String[]::new);
        int rounds = atLeast("--rounds", this.rounds, quick ? 2 : 5, 1);
        int seconds = atLeast("--seconds", this.seconds, quick ? 8 : 15, 5);
        int warmup = atLeast("--warmup", this.warmup, quick ? 8 : 15, 1);
        int sessions = atLeast("--sessions", this.sessions, 32, 1);
        int users = atLeast("--users", this.users, quick ? 2_000 : 15_000, 10);
        int quotes = atLeast("--quotes", this.quotes, quick ? 1_000 : 10_000, 10);
        Path sla = slaOption != null ? slaOption.toAbsolutePath() : null;
        if (sla != null && !Files.isReadable(sla)) {
            throw new ParameterException(spec.commandLine(), "--sla " + sla + ": no such file");
        }
        Path out;
        try {
            out = out(outOption, updateDocs);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (!OrbChoice.IRMI.isAvailable()) {
            System.err.println("benchmark: the I-RMI ORB is not on the class path; build irmi-orb first");
            return 2;
        }
        List<OrbChoice> orbs = new ArrayList<>(List.of(OrbChoice.JACORB, OrbChoice.IRMI));
        Map<String, List<Sample>> results = new LinkedHashMap<>();
        Instant started = Instant.now();
        Map<OrbChoice, DayTraderDeployment> running = new LinkedHashMap<>();
        Map<OrbChoice, Integer> saturationCalls = new LinkedHashMap<>();
        try {
            for (OrbChoice orb : orbs) {
                System.err.printf("benchmark: starting DayTrader on %s ...%n", orb.flag());
                running.put(orb, DayTraderDeployment.builder().orb(orb).users(users).quotes(quotes)
                        .backendJvmArgs(orb == OrbChoice.IRMI && sla != null ? List.of("-Dirmi.sla=" + sla) : List.of())
                        .workDir(Path.of("target", "benchmark", orb.flag())).start());
            }
            for (OrbChoice orb : orbs) {
                DayTraderDeployment dt = running.get(orb);
                // Warm-up: JIT, connection pools, caches. Discarded.
                HttperfResult warm = Httperf.run(Httperf.saturation("127.0.0.1", dt.webPort(), sessions,
                        Math.max(20, warmup * 10), dt.operatorToken()), Duration.ofMinutes(5));
                // A second, warm run of about `warmup` seconds measures the rate that sizes the saturating runs.
                warm = Httperf.run(Httperf.saturation("127.0.0.1", dt.webPort(), sessions,
                        Math.max(20, (int) (warm.replyThroughputPerSecond() * warmup / sessions)), dt.operatorToken()),
                        Duration.ofMinutes(5));
                saturationCalls.put(orb, Math.max(50, (int) (warm.replyThroughputPerSecond() * seconds / sessions)));
                System.err.printf("benchmark: %s warm, %.0f replies/s at saturation%n", orb.flag(), warm.replyThroughputPerSecond());
            }
            // Same-sized saturating runs for both ORBs (the larger calibration), so neither is measured over a shorter ramp.
            int calls = saturationCalls.values().stream().mapToInt(Integer::intValue).max().orElse(50);
            saturationCalls.replaceAll((orb, c) -> calls);
            // Both deployments stay up (the idle one costs little), and the ORBs take turns run by run, so
            // whatever else loads the machine hits both alike.
            for (String load : List.of("paper", "saturation")) {
                for (int round = 1; round <= rounds; round++) {
                    for (OrbChoice orb : orbs) {
                        DayTraderDeployment dt = running.get(orb);
                        HttperfWorkload w = load.equals("paper") ? Httperf.paperLoad("127.0.0.1", dt.webPort(), seconds,
                                dt.operatorToken())
                                : Httperf.saturation("127.0.0.1", dt.webPort(), sessions, saturationCalls.get(orb),
                                        dt.operatorToken());
                        Sample sample = measure(dt, w, seconds);
                        results.computeIfAbsent(load + "/" + orb.flag(), k -> new ArrayList<>()).add(sample);
                        System.err.printf("benchmark: %s %d/%d %s: %s%n", load, round, rounds, orb.flag(), sample);
                    }
                    java.util.Collections.reverse(orbs); // alternate who goes first
                }
            }
        } finally {
            running.values().forEach(DayTraderDeployment::close);
        }
        String report = report(results, rounds, seconds, sessions, users, quotes, quick, started, argv, sla);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, report);
        System.out.println(report);
        System.err.println("benchmark: wrote " + out);
        return 0;
    }

    private static Sample measure(DayTraderDeployment dt, HttperfWorkload load, int seconds)
            throws IOException, InterruptedException {
        dt.post("summary", "tier=web");
        HttperfResult r = Httperf.run(load, Duration.ofSeconds(seconds * 6L + 120));
        LatencySummary scenario = null;
        for (String line : dt.post("summary", "tier=web").body().split("\n")) {
            if (line.startsWith("scenario ")) {
                scenario = LatencySummary.parse(line);
            }
        }
        AuditReport audit = dt.audit();
        return new Sample(r.replyThroughputPerSecond(), scenario == null ? Double.NaN : scenario.getP50Micros() / 1000.0,
                scenario == null ? Double.NaN : scenario.getP99Micros() / 1000.0, r.replies(), r.status5xx(),
                r.errorsTotal(), r.isValid(), audit.isConsistent(), audit.toString(), loadAverage());
    }

    /** The machine's 1-minute load average (Linux), or NaN: other work on the machine shows in it. */
    static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    private static String report(Map<String, List<Sample>> results, int rounds, int seconds, int sessions, int users,
                                 int quotes, boolean quick, Instant started, String[] argv, Path sla) {
        StringBuilder sb = new StringBuilder();
        sb.append("# DayTrader benchmark: I-RMI vs stock JacORB\n\n");
        sb.append("Standard scenario mix (`/daytrader/scenario`), no faults, both tiers on the same ORB, embedded H2,\n")
                .append(String.format(Locale.ROOT, "%,d users and %,d quotes. Both deployments (JacORB, I-RMI) run side by side;"
                        + " after a warm-up each load runs %d times per ORB for about %d s, the ORBs taking turns (order"
                        + " alternating), so load from elsewhere on the machine hits both alike.%n%n", users, quotes, rounds, seconds))
                .append("- **paper load**: httperf, 4 concurrent sessions, 0.1 s think time (the paper's workload).\n")
                .append("- **saturation**: httperf, ").append(sessions).append(" concurrent sessions, no think time.\n")
                .append("- throughput = httperf replies / test duration; p50/p99 = the web tier's HdrHistogram of the\n")
                .append("  scenario page (includes the RMI-IIOP calls to the backend). Figures are medians over the runs.\n")
                .append(sla == null ? "- I-RMI's backend loads no SLA.\n\n"
                        : "- I-RMI's backend loads the SLA `" + sla.getFileName() + "` (`irmi.sla`); nothing in the run triggers it.\n\n");
        sb.append("| load | ORB | throughput (req/s) | p50 (ms) | p99 (ms) | replies | 5xx | httperf errors | valid | audit |\n");
        sb.append("|---|---|---:|---:|---:|---:|---:|---:|---|---|\n");
        for (String load : List.of("paper", "saturation")) {
            for (OrbChoice orb : List.of(OrbChoice.JACORB, OrbChoice.IRMI)) {
                List<Sample> s = results.get(load + "/" + orb.flag());
                if (s == null) {
                    continue;
                }
                sb.append(String.format(Locale.ROOT, "| %s | %s | %.1f | %.2f | %.2f | %d | %d | %d | %s | %s |%n", load,
                        orb == OrbChoice.IRMI ? "I-RMI" : "JacORB", med(s, Sample::throughput), med(s, Sample::p50Ms),
                        med(s, Sample::p99Ms), s.stream().mapToLong(Sample::replies).sum(),
                        s.stream().mapToLong(Sample::status5xx).sum(), s.stream().mapToLong(Sample::errors).sum(),
                        s.stream().allMatch(Sample::valid) ? "yes" : "NO", s.stream().allMatch(Sample::consistent) ? "0 faults" : "FAILED"));
            }
        }
        sb.append("\n| load | throughput I-RMI / JacORB | p99 I-RMI / JacORB |\n|---|---:|---:|\n");
        for (String load : List.of("paper", "saturation")) {
            List<Sample> i = results.get(load + "/irmi");
            List<Sample> j = results.get(load + "/jacorb");
            if (i != null && j != null) {
                sb.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f |%n", load,
                        med(i, Sample::throughput) / med(j, Sample::throughput), med(i, Sample::p99Ms) / med(j, Sample::p99Ms)));
            }
        }
        sb.append("\nPer run, in order (throughput req/s / p99 ms / the machine's 1-min load average after the run):\n\n");
        for (Map.Entry<String, List<Sample>> e : results.entrySet()) {
            sb.append("- ").append(e.getKey()).append(": ");
            for (Sample s : e.getValue()) {
                sb.append(String.format(Locale.ROOT, "%.1f / %.2f / %.1f;  ", s.throughput(), s.p99Ms(), s.loadAverage()));
            }
            sb.append('\n');
        }
        sb.append("\nRun ").append(started).append(", commit ").append(commit()).append(", on ").append(Runtime.getRuntime().availableProcessors())
                .append(" cores shared by httperf, both tiers and whatever else runs on the machine (see the load averages above;\n")
                .append("anything well above 2 means other work competed for the CPU and the figures are noisy).\n")
                .append("The paper load is bound by think time: when the machine keeps up, both ORBs serve about 4 / (0.1 s + response time).\n\n")
                .append("Reproduce:\n\n```\n./irmi build   # or mvn -B -q -pl irmi-orb,daytrader-bench/daytrader install -DskipTests\n")
                .append("cd daytrader-bench/daytrader && java -cp target/classes:$(cat target/classpath.txt) ")
                .append("org.irmi.bench.daytrader.DayTraderBenchmark").append(withoutOut(argv))
                .append(" --update-docs\n```\n");
        return sb.toString();
    }

    /** The checkout's commit (short), or "unknown" outside a git checkout. */
    private static String commit() {
        try {
            Process p = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
            return p.waitFor() == 0 && !out.isEmpty() ? out : "unknown";
        } catch (java.io.IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /**
     * Where the report goes: {@code out} when given, the documentation page of the enclosing checkout
     * with {@code updateDocs}, else {@code results/daytrader.md} (git-ignored).
     *
     * @throws IllegalArgumentException when both are given, or no enclosing directory holds {@code docs/benchmarks}
     */
    static Path out(String out, boolean updateDocs) {
        if (out != null && updateDocs) {
            throw new IllegalArgumentException("--out and --update-docs: give one (--update-docs writes docs/benchmarks/daytrader.md)");
        }
        if (out != null) {
            return Path.of(out);
        }
        if (!updateDocs) {
            return Path.of("results", "daytrader.md");
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("docs").resolve("benchmarks"))) {
                return dir.resolve("docs").resolve("benchmarks").resolve("daytrader.md");
            }
        }
        throw new IllegalArgumentException("--update-docs: no docs/benchmarks/ in " + Path.of("").toAbsolutePath()
                + " or above; run it inside the I-RMI checkout, or give --out FILE");
    }

    private static String withoutOut(String[] argv) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < argv.length; i++) {
            if (argv[i].equals("--out")) {
                i++;
            } else if (!argv[i].startsWith("--out=") && !argv[i].equals("--update-docs")) {
                sb.append(' ').append(argv[i]);
            }
        }
        return sb.toString();
    }

    private static double med(List<Sample> s, java.util.function.ToDoubleFunction<Sample> f) {
        return median(s.stream().mapToDouble(f).toArray());
    }
}
