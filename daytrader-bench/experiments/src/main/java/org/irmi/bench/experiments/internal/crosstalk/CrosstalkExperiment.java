package org.irmi.bench.experiments.internal.crosstalk;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.irmi.bench.experiments.Experiment;
import org.irmi.bench.experiments.ExperimentResult;
import org.irmi.bench.experiments.RunContext;
import org.irmi.bench.experiments.internal.ChildJvm;
import org.irmi.bench.experiments.internal.Children;
import org.irmi.bench.experiments.internal.OrbKind;
import org.irmi.bench.experiments.internal.ProgressBar;
import org.irmi.bench.experiments.internal.SlaFiles;

/**
 * The paper's QoS crosstalk experiment (section 3.3, Figures 8-9): the time to assemble a large
 * request against its size (64 KB to 8 MB), alone, with one 2 KB secondary stream and with N, on
 * plain JacORB and then on I-RMI with the large stream weighted 1x, 2x, 4x and 8x.
 *
 * <p>Placement on two cores: the server alone on CPU 0, every client on CPU 1, so the streams
 * compete inside the server (its reader threads on plain JacORB, its one selector thread on
 * I-RMI) and not for the server's CPU with the clients.
 */
public final class CrosstalkExperiment implements Experiment {

    static final int[] SIZES = {64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20, 2 << 20, 4 << 20, 8 << 20};
    static final int SMALL_BYTES = 2048;
    /** N, the most secondary streams a run adds ({@code -Dirmi.crosstalk.streams}). */
    public static final int MANY_STREAMS = Integer.getInteger("irmi.crosstalk.streams", 8);
    static final int[] WEIGHTS = {1, 2, 4, 8};
    static final int GOAL_WEIGHT = 8;
    static final int GOAL_MIN_BYTES = 1 << 20;
    static final String SERVER_CPUS = "0";
    /**
     * Heaps of the server and the large client, alike for both ORBs: a young generation that holds
     * many 8 MB messages, so a collection (of either process: the client builds each 8 MB request)
     * seldom lands in the middle of a measured transfer. With 512 / 256 MB heaps, one did every
     * 8-12 large requests and moved 4-8 MB medians by milliseconds between runs.
     */
    static final List<String> SERVER_HEAP = List.of("-Xmx1g", "-Xmn768m");
    static final List<String> CLIENT_HEAP = List.of("-Xmx1g", "-Xmn768m");
    static final String CLIENT_CPUS = "1";
    /** The secondary streams' client runs at this niceness on the clients' CPU (see {@link ChildJvm}). */
    static final int SMALL_NICENESS = Integer.getInteger("irmi.crosstalk.smallNiceness", 19);

    /** One condition: which ORB, the large stream's weight (I-RMI only), how many 2 KB streams. */
    record Case(String label, OrbKind orb, int weight, int streams) {
    }

    /** Read pacing deferrals the I-RMI server counted per condition, one figure per trial. */
    private final Map<Case, List<Long>> deferrals = new LinkedHashMap<>();

    @Override
    public String name() {
        return "crosstalk";
    }

    @Override
    public ExperimentResult run(RunContext context) throws Exception {
        int reps = switch (context.length()) {
            case TINY -> 5;
            case QUICK -> 11;
            case FULL -> 25;
        };
        int warmup = context.length() == org.irmi.bench.experiments.RunLength.FULL ? 3 : 1;
        long warmupMillis = warmupMillis(context.length());
        ExperimentResult result = new ExperimentResult(name(), "QoS crosstalk (Figures 8-9)");
        deferrals.clear();
        List<Case> cases = plan(context.length(), OrbKind.selected().contains(OrbKind.PLAIN),
                OrbKind.selected().contains(OrbKind.IRMI) && OrbKind.irmiAvailable());
        if (!OrbKind.selected().contains(OrbKind.IRMI)) {
            result.note("I-RMI was not run: -Dirmi.orbs excludes it.");
        } else if (!OrbKind.irmiAvailable()) {
            result.note("I-RMI was not run: " + OrbKind.IRMI_ORB_CLASS + " is not on the class path.");
        }
        // Interleaved trials: every condition once per trial, so a drift of the machine falls on all alike.
        List<Map<Case, Map<Integer, long[]>>> trials = new ArrayList<>();
        for (int trial = 1; trial <= context.repetitions(); trial++) {
            Map<Case, Map<Integer, long[]>> measured = new LinkedHashMap<>();
            for (Case c : cases) {
                if (context.repetitions() > 1) {
                    context.say("trial " + trial + " of " + context.repetitions() + ": " + c.label());
                }
                try {
                    measured.put(c, runCase(context, c, reps, warmup, warmupMillis));
                } catch (Exception e) {
                    // One failed condition must not hide the others: record it and go on.
                    String reason = e.getMessage() == null ? e.toString() : e.getMessage().lines().limit(4)
                            .reduce((x, y) -> x + " / " + y).orElse("");
                    result.note("FAILED CONDITION '" + c.label() + "' in trial " + trial + ": " + reason);
                    context.say("FAILED: " + c.label() + ": " + reason);
                    measured.put(c, new TreeMap<>());
                }
            }
            trials.add(measured);
        }
        writeCsv(context, trials);
        CrosstalkReport.report(result, trials, reps);
        for (Map.Entry<Case, List<Long>> e : deferrals.entrySet()) {
            if (e.getKey().orb() == OrbKind.IRMI) {
                result.figure("irmi.readDeferrals." + e.getKey().weight() + "x." + e.getKey().streams() + "streams",
                        e.getValue().stream().mapToLong(Long::longValue).sorted().skip(e.getValue().size() / 2).findFirst()
                                .orElse(0));
            }
        }
        return result;
    }

    /**
     * The conditions of one trial. Plain JacORB alone and with 1 to {@link #MANY_STREAMS} secondary
     * streams, so the report can name the fewest streams that show the harm on this machine (the
     * issue's allowance where one stream does not); I-RMI alone, its {@link #GOAL_WEIGHT}x weight
     * with the same stream counts, and the four weights of Figure 9 with one stream (the paper's
     * figure) and with {@link #MANY_STREAMS} (where plain JacORB shows the harm, so the order of the
     * curves is measured under contention). The tiny (CI) plan keeps the two ends of each; the
     * quick plan doubles the stream count from 1 to N (1, 2, 4, 8 with N = 8), which keeps {@code --quick}
     * under its 5 minutes (all eight counts made it 5 min 15 s with the build).
     */
    static List<Case> plan(org.irmi.bench.experiments.RunLength length, boolean plain, boolean irmi) {
        boolean tiny = length == org.irmi.bench.experiments.RunLength.TINY;
        int[] streamCounts = switch (length) {
            case TINY -> new int[] {1, MANY_STREAMS};
            case QUICK -> java.util.stream.IntStream.concat(
                    java.util.stream.IntStream.iterate(1, n -> n < MANY_STREAMS, n -> n * 2),
                    java.util.stream.IntStream.of(MANY_STREAMS)).distinct().toArray();
            case FULL -> java.util.stream.IntStream.rangeClosed(1, MANY_STREAMS).toArray();
        };
        int[] weights = tiny ? new int[] {1, GOAL_WEIGHT} : WEIGHTS;
        List<Case> cases = new ArrayList<>();
        if (plain) {
            cases.add(new Case("plain alone", OrbKind.PLAIN, 0, 0));
            for (int streams : streamCounts) {
                cases.add(new Case("plain + " + streamsLabel(streams), OrbKind.PLAIN, 0, streams));
            }
        }
        if (irmi) {
            cases.add(new Case("I-RMI alone", OrbKind.IRMI, GOAL_WEIGHT, 0));
            for (int weight : weights) {
                cases.add(new Case("I-RMI " + weight + "x + 1 stream", OrbKind.IRMI, weight, 1));
            }
            for (int streams : streamCounts) {
                if (streams > 1) {
                    cases.add(new Case("I-RMI " + GOAL_WEIGHT + "x + " + streamsLabel(streams), OrbKind.IRMI, GOAL_WEIGHT, streams));
                }
            }
            for (int weight : weights) {
                if (weight != GOAL_WEIGHT && MANY_STREAMS > 1) {
                    cases.add(new Case("I-RMI " + weight + "x + " + streamsLabel(MANY_STREAMS), OrbKind.IRMI, weight, MANY_STREAMS));
                }
            }
        }
        return cases;
    }

    static String streamsLabel(int streams) {
        return streams + (streams == 1 ? " stream" : " streams");
    }

    private Map<Integer, long[]> runCase(RunContext context, Case c, int reps, int warmup, long warmupMillis)
            throws Exception {
        String tag = "crosstalk-" + c.label().replaceAll("[^A-Za-z0-9]+", "-").toLowerCase();
        Path sla = c.orb() == OrbKind.IRMI ? slaWithWeight(context.resultsDir(), c.weight()) : null;
        try (Children children = new Children()) {
            List<String> serverOptions = withHeap(c.orb().jvmOptions(sla), SERVER_HEAP);
            String extra = System.getProperty("irmi.crosstalk.serverJvmOptions", "");
            if (!extra.isBlank()) {
                serverOptions.addAll(List.of(extra.trim().split("\\s+"))); // for diagnosis, e.g. -Xlog:gc
            }
            if (c.orb() == OrbKind.PLAIN) {
                // Watches what JacORB's reader threads read; changes nothing about the sockets.
                serverOptions.add("-Djacorb.net.server_socket_factory=" + TimingServerSocketFactory.class.getName());
            }
            ChildJvm server = children.add(ChildJvm.start(tag + "-server", SERVER_CPUS, context.classPath(),
                    serverOptions, CrosstalkServerMain.class, List.of("500"), context.logDir()));
            String ior = server.await("IOR", 30_000);
            String smallIor = server.await("SMALL", 1_000);
            List<String> clientOptions = withHeap(OrbKind.PLAIN.jvmOptions(null), CLIENT_HEAP);
            if (c.streams() > 0) {
                ChildJvm small = children.add(ChildJvm.start(tag + "-small", CLIENT_CPUS, SMALL_NICENESS, context.classPath(), clientOptions,
                        SmallStreamsMain.class, List.of(smallIor, String.valueOf(c.streams()), String.valueOf(SMALL_BYTES), "500"),
                        context.logDir()));
                small.await("IOR", 30_000);
                Thread.sleep(500); // let the streams reach their steady rate
            }
            StringBuilder sizes = new StringBuilder();
            for (int size : SIZES) {
                sizes.append(sizes.length() == 0 ? "" : ",").append(size);
            }
            ChildJvm large = children.add(ChildJvm.start(tag + "-large", CLIENT_CPUS, context.classPath(), clientOptions,
                    LargeStreamMain.class, List.of(ior, sizes.toString(), String.valueOf(reps), String.valueOf(warmup),
                    String.valueOf(warmupMillis)),
                    context.logDir()));
            new ProgressBar(context.terminal()).steps("crosstalk " + c.label() + " (sizes)", SIZES.length,
                    () -> large.linesWith("RESULT").size(), () -> !large.alive(), caseTimeoutMillis(reps));
            if (large.linesWith("RESULT").size() < SIZES.length) {
                large.await("DONE", 5_000); // throws with the client's last output
            }
            Thread.sleep(600); // one more STAT line of the server, after the last large request
            List<String> stats = server.linesWith("STAT");
            if (!stats.isEmpty()) {
                String[] cells = stats.get(stats.size() - 1).split(" ");
                deferrals.merge(c, List.of(Long.parseLong(cells[cells.length - 1])),
                        (a, b) -> java.util.stream.Stream.concat(a.stream(), b.stream()).toList());
            }
            Map<Integer, long[]> bySize = new TreeMap<>();
            for (String line : large.linesWith("RESULT")) {
                String[] cells = line.split(" ");
                bySize.put(Integer.parseInt(cells[0]), new long[] {
                    Long.parseLong(cells[1]), Long.parseLong(cells[2]), Long.parseLong(cells[3])});
            }
            return bySize;
        }
    }

    /**
     * The least warm-up time of the large stream (with the secondary streams already running). In
     * a profile of a whole loaded run of about 3 s with two warm-up rounds, the server's JIT
     * compiler threads took 46% of its CPU samples, more than its reader thread: a run that short
     * can measure requests that race the compilers for the server's one CPU, on either ORB.
     */
    static long warmupMillis(org.irmi.bench.experiments.RunLength length) {
        return switch (length) {
            case TINY, QUICK -> 2_000;
            case FULL -> 3_000;
        };
    }

    /**
     * A bound on one condition: generous (at 50 ms per MB and request, 10x slower than measured
     * here) so a slow ORB is measured, but a stalled one ends the condition instead of the run.
     */
    static long caseTimeoutMillis(int reps) {
        long totalMb = 0;
        for (int size : SIZES) {
            totalMb += Math.max(1, size >> 20);
        }
        return 33_000 + (long) (reps + 3) * totalMb * 50;
    }

    private static List<String> withHeap(List<String> options, List<String> heap) {
        List<String> all = new ArrayList<>(options);
        all.addAll(heap);
        return all;
    }

    /**
     * The worked example {@code sla/crosstalk.yaml} weights the large stream 8x; the other weights
     * are the same file with that one number changed.
     */
    static Path slaWithWeight(Path resultsDir, int weight) throws IOException {
        Path example = SlaFiles.extract(resultsDir, "crosstalk.yaml");
        if (weight == GOAL_WEIGHT) {
            return example;
        }
        String text = Files.readString(example, StandardCharsets.UTF_8);
        String changed = text.replace("weight: " + GOAL_WEIGHT, "weight: " + weight);
        if (changed.equals(text)) {
            throw new IllegalStateException("sla/crosstalk.yaml has no 'weight: " + GOAL_WEIGHT + "' to vary");
        }
        Path copy = example.resolveSibling("crosstalk-" + weight + "x.yaml");
        Files.writeString(copy, changed, StandardCharsets.UTF_8);
        return copy;
    }

    private static void writeCsv(RunContext context, List<Map<Case, Map<Integer, long[]>>> trials) {
        List<String> lines = new ArrayList<>();
        for (int t = 0; t < trials.size(); t++) {
            int trial = t + 1;
            trials.get(t).forEach((c, bySize) -> bySize.forEach((size, v) -> lines.add(String.format(
                    "%d,%s,%s,%d,%d,%d,%d,%d,%d", trial, c.label(), c.orb().name().toLowerCase(), c.weight(), c.streams(),
                    size, v[0], v[1], v[2]))));
        }
        context.writeCsv("crosstalk-assembly.csv",
                "trial,case,orb,weight,secondary_streams,bytes,median_nanos,mean_nanos,p90_nanos", lines);
    }
}
