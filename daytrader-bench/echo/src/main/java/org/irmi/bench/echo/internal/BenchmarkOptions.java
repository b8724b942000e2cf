package org.irmi.bench.echo.internal;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.irmi.bench.echo.OrbVariant;
import org.irmi.bench.echo.OrbVariants;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The echo benchmark's settings, from its command line.
 *
 * @param quick          the short run
 * @param variants       the variants to measure, in report order; the first is the baseline
 * @param variantSpecs   per variant, what its server's {@code --orb} gets
 * @param payloads       request sizes in bytes
 * @param connections    client connection counts, ascending
 * @param trials         trials per variant and cell
 * @param warmup         unrecorded time before each trial's measurement
 * @param measure        recorded time of each trial
 * @param serverWarmup   load on each fresh server before the first cell (JIT)
 * @param out            the Markdown report to write: {@code results/echo.md} unless {@code --update-docs} or {@code --out}
 * @param client         the load client
 */
public record BenchmarkOptions(boolean quick, List<OrbVariant> variants, Map<String, String> variantSpecs,
                               List<Integer> payloads, List<Integer> connections, int trials, Duration warmup,
                               Duration measure, Duration serverWarmup, Path out, LoadClient client) {

    /** The load clients: each takes the same options and prints the same lines ({@link LoadRun}). */
    public enum LoadClient {
        /** The omniORB C++ client {@code echo_load_client}: a thread per connection, a real ORB. */
        OMNIORB,
        /** {@code NioLoadClient}: every connection on one Java thread, GIOP spoken directly. */
        NIO,
        /**
         * {@code echo_epoll_client} (C++, no ORB): every connection on one thread with epoll, GIOP spoken
         * directly; the cheapest per call, so the one that lets 2 cores measure a server past about 50,000 calls/s.
         */
        EPOLL;

        static LoadClient parse(String v) {
            return switch (v) {
                case "omniorb" -> OMNIORB;
                case "nio" -> NIO;
                case "epoll" -> EPOLL;
                default -> throw new IllegalArgumentException("--client: '" + v + "' is not omniorb, nio or epoll");
            };
        }
    }

    /** The command line ({@link #commandLine()}): picocli binds the options here, {@link #of} checks them. */
    @Command(name = "./irmi echo-bench", sortOptions = false, usageHelpAutoWidth = true,
            // One paragraph per element: picocli wraps each to the terminal's width (80 columns when piped).
            description = {"Measures stock JacORB and I-RMI echo servers (each in its own JVM) with the omniORB C++ "
                    + "closed-loop client, and writes a Markdown report: results/echo.md (results/echo-quick.md with "
                    + "--quick), or the documentation page docs/benchmarks/echo.md with --update-docs, or FILE with --out."},
            footer = {"", "./irmi echo-bench --nio-cell [OPTIONS...] holds N connections on one NIO client thread instead: "
                    + "the ramp, the heap per idle connection, then a closed loop. ./irmi echo-bench --nio-cell --help "
                    + "lists its options.",
                    "Exit status: 0 measured, 1 nothing could be measured, 2 bad option."})
    public static final class Flags {
        @Option(names = "--quick", description = "The short run: fewer and shorter trials, its own report.")
        boolean quick;

        @Option(names = "--variants", paramLabel = "NAME,...",
                description = "The variants to measure, the first the baseline (default: jacorb,irmi); omniorb adds"
                        + " omniORB's C++ echo server (thread pool of 20).")
        String variants;

        @Option(names = "--variant", paramLabel = "NAME=BASE,key=value,...",
                description = "Adds a variant made of a base variant plus ORB properties, e.g."
                        + " --variant irmi-mon=irmi,irmi.monitoring.per_request=true (repeatable).")
        List<String> extraSpecs = new ArrayList<>();

        @Option(names = "--payloads", paramLabel = "BYTES,...", description = "Request sizes (default: 100,65536).")
        String payloads;

        @Option(names = "--connections", paramLabel = "N,...",
                description = "Client connection counts, up to 10000; the open-files limit must be at least N + 256"
                        + " (default: 1,16,256,1000).")
        String connections;

        @Option(names = "--trials", paramLabel = "N", description = "Trials per variant and cell (default: 5, 2 with --quick).")
        String trials;

        @Option(names = "--warmup-ms", paramLabel = "MS", description = "Unrecorded time before each trial (default: 1000, 300 with --quick).")
        String warmupMs;

        @Option(names = "--measure-ms", paramLabel = "MS", description = "Recorded time of each trial (default: 3000, 1000 with --quick).")
        String measureMs;

        @Option(names = "--client", paramLabel = "omniorb|nio|epoll",
                description = "The load client: omniORB's C++ client, a thread per connection (the default); nio:"
                        + " NioLoadClient, every connection on one Java thread; epoll: echo_epoll_client (C++, one"
                        + " epoll thread, GIOP spoken directly), the cheapest per call.")
        String client;

        @Option(names = "--out", paramLabel = "FILE", description = "The Markdown report to write.")
        Path out;

        @Option(names = "--update-docs", description = "Write the documentation page docs/benchmarks/echo.md (not with --out).")
        boolean updateDocs;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "Print this help and exit.")
        boolean help;
    }

    /** The command line; after {@code parseArgs}, {@link #of} turns its {@link Flags} into options. */
    public static CommandLine commandLine() {
        return new CommandLine(new Flags());
    }

    /**
     * Parses the command line ({@code --help} is not an option here: see {@link #commandLine()}).
     *
     * @throws IllegalArgumentException naming the bad option and what it needs
     */
    public static BenchmarkOptions parse(String[] args) {
        CommandLine cl = commandLine();
        try {
            cl.parseArgs(args);
        } catch (ParameterException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return of(cl.getCommand());
    }

    /**
     * Checks parsed flags and fills in the defaults.
     *
     * @throws IllegalArgumentException naming the bad option and what it needs
     */
    public static BenchmarkOptions of(Flags f) {
        boolean quick = f.quick;
        List<Integer> payloads = f.payloads == null ? List.of(100, 64 * 1024) : ints("--payloads", f.payloads, 0, 16 * 1024 * 1024);
        List<Integer> connections = f.connections == null ? List.of(1, 16, 256, 1000)
                : ints("--connections", f.connections, 1, 10_000).stream().sorted().toList();
        Integer trials = f.trials == null ? null : ints("--trials", f.trials, 1, 100).get(0);
        Long warmupMs = f.warmupMs == null ? null : (long) ints("--warmup-ms", f.warmupMs, 0, 600_000).get(0);
        Long measureMs = f.measureMs == null ? null : (long) ints("--measure-ms", f.measureMs, 100, 600_000).get(0);
        LoadClient client = f.client == null ? LoadClient.OMNIORB : LoadClient.parse(f.client);
        List<String> names = f.variants == null ? null : List.of(f.variants.split(","));
        List<String> extraSpecs = f.extraSpecs;
        Path out = f.out;
        Map<String, OrbVariant> known = new LinkedHashMap<>(OrbVariants.known());
        Map<String, String> specs = new LinkedHashMap<>();
        known.keySet().forEach(n -> specs.put(n, n));
        List<OrbVariant> chosen = new ArrayList<>();
        for (String n : names == null ? List.copyOf(OrbVariants.builtIns().keySet()) : names) {
            OrbVariant v = known.get(n.trim());
            if (v == null) {
                throw new IllegalArgumentException("--variants: unknown variant '" + n + "'; known: "
                        + String.join(", ", known.keySet()) + " (define more with --variant NAME=BASE,key=value)");
            }
            chosen.add(v);
        }
        for (String spec : extraSpecs) {
            OrbVariant v = OrbVariants.parse(spec, known);
            if (known.containsKey(v.name())) {
                throw new IllegalArgumentException("--variant: name '" + v.name() + "' is taken");
            }
            known.put(v.name(), v);
            specs.put(v.name(), spec);
            chosen.add(v);
        }
        return new BenchmarkOptions(quick, List.copyOf(chosen), Map.copyOf(specs), List.copyOf(payloads),
                List.copyOf(connections), trials != null ? trials : quick ? 2 : 5,
                Duration.ofMillis(warmupMs != null ? warmupMs : quick ? 300 : 1000),
                Duration.ofMillis(measureMs != null ? measureMs : quick ? 1000 : 3000),
                Duration.ofMillis(quick ? 2000 : 8000),
                out(out, f.updateDocs, quick), client);
    }

    /** {@code --out}, else the documentation page with {@code --update-docs}, else a report under {@code results/}. */
    private static Path out(Path out, boolean updateDocs, boolean quick) {
        if (out != null && updateDocs) {
            throw new IllegalArgumentException("--out and --update-docs: give one (--update-docs writes docs/benchmarks/echo.md)");
        }
        String name = quick ? "echo-quick.md" : "echo.md";
        return out != null ? out : updateDocs ? Path.of("docs", "benchmarks", name) : Path.of("results", name);
    }

    private static List<Integer> ints(String option, String value, int min, int max) {
        List<Integer> out = new ArrayList<>();
        for (String s : value.split(",")) {
            int n;
            try {
                n = Integer.parseInt(s.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + ": '" + s + "' is not a whole number");
            }
            if (n < min || n > max) {
                throw new IllegalArgumentException(option + ": " + n + " is outside " + min + ".." + max);
            }
            out.add(n);
        }
        return out;
    }
}
