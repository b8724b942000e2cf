package org.irmi.bench.echo.internal;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.irmi.bench.echo.OrbVariant;
import org.irmi.bench.echo.OrbVariants;

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

    /** The command-line help. */
    public static final String USAGE = """
            usage: ./irmi echo-bench [--quick] [--variants jacorb,irmi[,omniorb]] [--variant NAME=BASE,key=value,...]...
                                     [--payloads 100,65536] [--connections 1,16,256,1000] [--trials N]
                                     [--warmup-ms MS] [--measure-ms MS] [--client omniorb|nio|epoll] [--out FILE | --update-docs]
                   ./irmi echo-bench --nio-cell [--variants irmi,jacorb] [--connections 10000] [--trials N]
                                     [--idle-ms MS] [--measure-ms MS] [--histo DIR]
              Measures stock JacORB and I-RMI echo servers (each in its own JVM) with the omniORB C++
              closed-loop client, and writes a Markdown report: results/echo.md (results/echo-quick.md with
              --quick), or the documentation page docs/benchmarks/echo.md with --update-docs, or FILE with --out.
              --variants omniorb adds omniORB's C++ echo server (thread pool of 20) as a variant.
              --client nio loads the servers with NioLoadClient, every connection on one Java thread, instead
                of the omniORB C++ client's thread per connection; --client epoll with echo_epoll_client
                (C++, every connection on one epoll thread, GIOP spoken directly): the cheapest per call.
              --connections goes up to 10000 (the open-files limit must be at least N + 256).
              --variant adds an ORB variant made of a base variant plus ORB properties, e.g.
                --variant irmi-mon=irmi,irmi.monitoring.per_request=true
              --nio-cell holds N connections on one NIO client thread (GIOP 1.2 spoken directly): ramp,
                heap per idle connection after a full GC, then a closed loop; prints one line per trial.""";

    /**
     * Parses the command line.
     *
     * @throws IllegalArgumentException naming the bad option and what it needs
     */
    public static BenchmarkOptions parse(String[] args) {
        boolean quick = false;
        List<String> names = null;
        List<String> extraSpecs = new ArrayList<>();
        List<Integer> payloads = List.of(100, 64 * 1024);
        List<Integer> connections = List.of(1, 16, 256, 1000);
        Integer trials = null;
        Long warmupMs = null;
        Long measureMs = null;
        Path out = null;
        boolean updateDocs = false;
        LoadClient client = LoadClient.OMNIORB;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--quick")) {
                quick = true;
                continue;
            }
            if (a.equals("--update-docs")) {
                updateDocs = true;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("unknown option or missing value: " + a);
            }
            String v = args[++i];
            switch (a) {
                case "--variants" -> names = List.of(v.split(","));
                case "--variant" -> extraSpecs.add(v);
                case "--payloads" -> payloads = ints(a, v, 0, 16 * 1024 * 1024);
                case "--connections" -> connections = ints(a, v, 1, 10_000).stream().sorted().toList();
                case "--trials" -> trials = ints(a, v, 1, 100).get(0);
                case "--warmup-ms" -> warmupMs = (long) ints(a, v, 0, 600_000).get(0);
                case "--measure-ms" -> measureMs = (long) ints(a, v, 100, 600_000).get(0);
                case "--out" -> out = Path.of(v);
                case "--client" -> client = LoadClient.parse(v);
                default -> throw new IllegalArgumentException("unknown option: " + a);
            }
        }
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
                out(out, updateDocs, quick), client);
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
