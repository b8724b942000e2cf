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

import org.irmi.bench.daytrader.ChildJvm;
import org.irmi.bench.experiments.Experiment;
import org.irmi.bench.experiments.ExperimentResult;
import org.irmi.bench.experiments.RunContext;
import org.irmi.bench.experiments.internal.Children;
import org.irmi.bench.experiments.internal.OrbKind;
import org.irmi.bench.experiments.internal.ProgressBar;
import org.irmi.bench.experiments.internal.SlaFiles;

/**
 * The paper's QoS crosstalk experiment (section 3.3, Figures 8-9): the time to assemble a large
 * request against its size (64 KB to 4 MB over the link), alone, with one 2 KB secondary stream and with N, on
 * plain JacORB and then on I-RMI with the large stream weighted 1x, 2x, 4x and 8x.
 *
 * <p>Placement on two cores: the server alone on CPU 0, every client on CPU 1. The clients run
 * behind an emulated 100 Mbit/s link ({@link LinkEmulation}), so the streams compete for the link,
 * and the server decides by what it reads how much of it each stream gets.
 */
public final class CrosstalkExperiment implements Experiment {

    /**
     * The message sizes: 64 KB to 4 MB on the emulated link (an 8 MB request takes 0.7 s alone at
     * 100 Mbit/s, up to 5 s with four streams on plain JacORB, which would make a full run of three
     * trials last about half an hour more), to 8 MB on loopback.
     */
    static final int[] SIZES = linkRate().equals("loopback")
            ? new int[] {64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20, 2 << 20, 4 << 20, 8 << 20}
            : new int[] {64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20, 2 << 20, 4 << 20};
    static final int SMALL_BYTES = 2048;
    /** N, the most secondary streams a run adds ({@code -Dirmi.crosstalk.streams}). */
    public static final int MANY_STREAMS = Integer.getInteger("irmi.crosstalk.streams", 4);
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
    /** The secondary streams' client runs at this niceness on the clients' CPU (see {@link org.irmi.bench.daytrader.ChildJvmBuilder#niceness}). */
    static final int SMALL_NICENESS = Integer.getInteger("irmi.crosstalk.smallNiceness", 19);
    /**
     * The link between the clients and the server ({@link LinkEmulation}), as {@code tc} writes a
     * rate; {@code loopback} for none ({@code -Dirmi.crosstalk.link}).
     */
    static final String LINK_RATE = linkRate();

    private static String linkRate() {
        return System.getProperty("irmi.crosstalk.link", "100mbit");
    }
    /** The link's FIFO, a switch port's buffer ({@code -Dirmi.crosstalk.linkQueueBytes}). */
    static final int LINK_QUEUE_BYTES = Integer.getInteger("irmi.crosstalk.linkQueueBytes", 256 << 10);

    /**
     * How the secondary streams call: {@code oneway} messages sent as fast as TCP takes them, or
     * {@code twoway} closed loops with one call in flight ({@code -Dirmi.crosstalk.smallCalls}).
     */
    static final String SMALL_CALLS = System.getProperty("irmi.crosstalk.smallCalls", "oneway");

    /** The link of this run, or null on loopback. */
    private LinkEmulation link;

    /**
     * One condition: which ORB, the large stream's weight (I-RMI only), how many 2 KB streams, and
     * whether the SLA's weights are taken per connection instead of per rule (the comparison the
     * full run adds, outside the goals and curves).
     */
    record Case(String label, OrbKind orb, int weight, int streams, boolean perConnection) {
        Case(String label, OrbKind orb, int weight, int streams) {
            this(label, orb, weight, streams, false);
        }
    }

    /** Read pacing deferrals the I-RMI server counted per condition, one figure per trial. */
    private final Map<Case, List<Long>> deferrals = new LinkedHashMap<>();
    /** The warm-ups of this run's conditions. */
    private CrosstalkWarmup warmups = new CrosstalkWarmup();

    @Override
    public String name() {
        return "crosstalk";
    }

    @Override
    public ExperimentResult run(RunContext context) throws Exception {
        int reps = switch (context.length()) {
            case TINY -> 5;
            case QUICK -> LINK_RATE.equals("loopback") ? 11 : 7;
            case FULL -> LINK_RATE.equals("loopback") ? 25 : 11; // the link's times vary far less than loopback's
        };
        int warmup = context.length() == org.irmi.bench.experiments.RunLength.FULL ? 3 : 1;
        long warmupMillis = CrosstalkWarmup.warmupMillis(context.length());
        ExperimentResult result = new ExperimentResult(name(), "QoS crosstalk (Figures 8-9)");
        deferrals.clear();
        warmups = new CrosstalkWarmup();
        List<Case> cases = plan(context.length(), OrbKind.selected().contains(OrbKind.PLAIN),
                OrbKind.selected().contains(OrbKind.IRMI) && OrbKind.irmiAvailable());
        if (!OrbKind.selected().contains(OrbKind.IRMI)) {
            result.note("I-RMI was not run: -Dirmi.orbs excludes it.");
        } else if (!OrbKind.irmiAvailable()) {
            result.note("I-RMI was not run: " + OrbKind.IRMI_ORB_CLASS + " is not on the class path.");
        }
        if (!LINK_RATE.equals("loopback")) {
            link = LinkEmulation.open(LINK_RATE, LINK_QUEUE_BYTES);
            result.note("Network: " + link.describe() + ". Every client runs behind it; the server in the machine's own"
                    + " namespace. The paper's clients each had a machine of their own and reached the server over a network;"
                    + " on loopback the streams competed only for CPU time (-Dirmi.crosstalk.link=loopback for that).");
        } else {
            result.note("Network: loopback (-Dirmi.crosstalk.link=loopback): the streams compete for the server's CPU only.");
        }
        try {
            runTrials(context, result, cases, reps, warmup, warmupMillis);
        } finally {
            if (link != null) {
                context.say("crosstalk link: " + link.statistics().lines().filter(l -> l.contains("Sent")).toList());
                link.close();
                link = null;
            }
        }
        return result;
    }

    private void runTrials(RunContext context, ExperimentResult result, List<Case> cases, int reps, int warmup,
                           long warmupMillis) throws Exception {
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
                result.figure("irmi.readDeferrals." + e.getKey().weight() + "x." + e.getKey().streams() + "streams"
                                + (e.getKey().perConnection() ? ".perConnection" : ""),
                        e.getValue().stream().mapToLong(Long::longValue).sorted().skip(e.getValue().size() / 2).findFirst()
                                .orElse(0));
            }
        }
        warmups.report(result, warmupMillis, CrosstalkWarmup.maxWarmupMillis(context.length()));
    }

    /**
     * The conditions of one trial. Full run: plain JacORB alone and with 1, 2 and {@link #MANY_STREAMS}
     * secondary streams (so the report can name the fewest that show the harm); I-RMI alone, its
     * {@link #GOAL_WEIGHT}x weight with the same stream counts, the four weights of Figure 9 with one
     * stream (the paper's figure) and with {@link #MANY_STREAMS} (where the order of the curves is
     * measured under contention), and {@link #GOAL_WEIGHT}x with {@link #MANY_STREAMS} streams under
     * the same SLA with {@code weightPer: connection}. Quick: plain alone, 1 and N streams; I-RMI
     * alone, 8x with 1 and N (the goals' conditions, so {@code --quick} stays under 5 minutes). Tiny
     * (CI): as quick plus I-RMI 1x with 1 and N, whose deferrals the CI test checks.
     */
    static List<Case> plan(org.irmi.bench.experiments.RunLength length, boolean plain, boolean irmi) {
        int[] streamCounts = switch (length) {
            case TINY, QUICK -> MANY_STREAMS > 1 ? new int[] {1, MANY_STREAMS} : new int[] {1};
            // 1, 2 and N: plain JacORB's harm and I-RMI's remedy as the streams add up (each count costs
            // a condition per ORB and trial; on the link, 1 stream already shows the harm).
            case FULL -> java.util.stream.IntStream.of(1, 2, MANY_STREAMS).filter(n -> n <= MANY_STREAMS).distinct().toArray();
        };
        int[] weights = switch (length) {
            case TINY -> new int[] {1, GOAL_WEIGHT}; // CI checks that 1x never defers and 8x does
            case QUICK -> new int[] {GOAL_WEIGHT};   // the goals' weight only: --quick stays under 5 minutes
            case FULL -> WEIGHTS;
        };
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
            if (length == org.irmi.bench.experiments.RunLength.FULL && MANY_STREAMS > 1) {
                // The same SLA with weightPer: connection, to show what sharing the weight per rule changes.
                cases.add(new Case("I-RMI " + GOAL_WEIGHT + "x per connection + " + streamsLabel(MANY_STREAMS), OrbKind.IRMI,
                        GOAL_WEIGHT, MANY_STREAMS, true));
            }
        }
        return cases;
    }

    /**
     * The largest size a run measures: over the link, 2 MB in {@code --quick} and CI (a 4 MB request
     * takes 0.35 s alone and 2.5 s with four streams on plain JacORB, which alone put {@code --quick}
     * over its 5 minutes), every size in a full run.
     */
    static int largestSize(org.irmi.bench.experiments.RunLength length) {
        return length == org.irmi.bench.experiments.RunLength.FULL || LINK_RATE.equals("loopback")
                ? Integer.MAX_VALUE : 2 << 20;
    }

    static String streamsLabel(int streams) {
        return streams + (streams == 1 ? " stream" : " streams");
    }

    private Map<Integer, long[]> runCase(RunContext context, Case c, int reps, int warmup, long warmupMillis)
            throws Exception {
        String tag = "crosstalk-" + c.label().replaceAll("[^A-Za-z0-9]+", "-").toLowerCase();
        Path sla = c.orb() == OrbKind.IRMI ? slaWithWeight(context.resultsDir(), c.weight(), c.perConnection()) : null;
        try (Children children = new Children(context.logDir())) {
            List<String> serverOptions = withHeap(c.orb().jvmOptions(sla), SERVER_HEAP);
            String extra = System.getProperty("irmi.crosstalk.serverJvmOptions", "");
            if (!extra.isBlank()) {
                serverOptions.addAll(List.of(extra.trim().split("\\s+"))); // for diagnosis, e.g. -Xlog:gc
            }
            List<String> clientPrefix = List.of();
            if (link != null) {
                serverOptions.add("-DOAIAddr=" + link.serverAddress());
                clientPrefix = link.clientPrefix();
            }
            if (c.orb() == OrbKind.PLAIN) {
                // Watches what JacORB's reader threads read; changes nothing about the sockets.
                serverOptions.add("-Djacorb.net.server_socket_factory=" + TimingServerSocketFactory.class.getName());
            }
            ChildJvm server = children.start(ChildJvm.builder(tag + "-server", CrosstalkServerMain.class)
                    .cpus(SERVER_CPUS).classPath(context.classPath()).jvmOptions(serverOptions).args(List.of("500")));
            String ior = server.awaitLine("IOR", 30_000);
            String smallIor = server.awaitLine("SMALL", 1_000);
            List<String> clientOptions = withHeap(OrbKind.PLAIN.jvmOptions(null), CLIENT_HEAP);
            if (c.streams() > 0) {
                ChildJvm small = children.start(ChildJvm.builder(tag + "-small", SmallStreamsMain.class)
                        .prefix(clientPrefix).niceness(SMALL_NICENESS).cpus(CLIENT_CPUS).classPath(context.classPath())
                        .jvmOptions(clientOptions).args(List.of(smallIor, String.valueOf(c.streams()),
                                String.valueOf(SMALL_BYTES), "500", SMALL_CALLS)));
                small.awaitLine("IOR", 30_000);
                Thread.sleep(500); // let the streams reach their steady rate
            }
            StringBuilder sizes = new StringBuilder();
            for (int size : SIZES) {
                if (size <= largestSize(context.length())) {
                    sizes.append(sizes.length() == 0 ? "" : ",").append(size);
                }
            }
            ChildJvm large = children.start(ChildJvm.builder(tag + "-large", LargeStreamMain.class)
                    .prefix(clientPrefix).cpus(CLIENT_CPUS).classPath(context.classPath()).jvmOptions(clientOptions)
                    .args(List.of(ior, sizes.toString(), String.valueOf(reps), String.valueOf(warmup),
                            String.valueOf(warmupMillis), "gate")));
            CrosstalkWarmup.Warmup warm = warmups.await(c, server, large, warmupMillis,
                    CrosstalkWarmup.maxWarmupMillis(context.length()));
            large.send("measure");
            new ProgressBar(context.terminal()).steps("crosstalk " + c.label() + " (sizes)", sizes.toString().split(",").length,
                    () -> large.linesWith("RESULT").size(), () -> !large.alive(), caseTimeoutMillis(reps, c.streams(), link));
            if (large.linesWith("RESULT").size() < sizes.toString().split(",").length) {
                large.awaitLine("DONE", 5_000); // throws with the client's last output
            }
            Thread.sleep(600); // one more STAT line of the server, after the last large request
            List<String> stats = server.linesWith("STAT");
            if (!stats.isEmpty()) {
                String[] cells = stats.get(stats.size() - 1).split(" ");
                deferrals.merge(c, List.of(Long.parseLong(cells[3])),
                        (a, b) -> java.util.stream.Stream.concat(a.stream(), b.stream()).toList());
                warmups.measured(c, warm, Long.parseLong(cells[4]));
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
     * A bound on one condition: generous (on loopback 50 ms per MB and request, 10x slower than
     * measured there) so a slow ORB is measured, but a stalled one ends the condition instead of the run.
     */
    static long caseTimeoutMillis(int reps, int streams, LinkEmulation link) {
        long totalMb = 0;
        for (int size : SIZES) {
            totalMb += Math.max(1, size >> 20);
        }
        // On an emulated link: 4x the link's own time for each stream sharing it (plain JacORB with
        // 4 streams took up to 15x, its fair share being a fifth).
        long perMb = link == null ? 50 : Math.max(50, Math.round(4 * link.millisPerMib() * (streams + 1)));
        return 33_000 + (long) (reps + 3) * totalMb * perMb;
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
    static Path slaWithWeight(Path resultsDir, int weight, boolean perConnection) throws IOException {
        String own = System.getProperty("irmi.crosstalk.sla"); // an SLA of one's own, with 'weight: 8' for the large stream
        Path example = own != null ? Path.of(own) : SlaFiles.extract(resultsDir, "crosstalk.yaml");
        if (weight == GOAL_WEIGHT && !perConnection) {
            return example;
        }
        String text = Files.readString(example, StandardCharsets.UTF_8);
        String changed = text.replace("weight: " + GOAL_WEIGHT, "weight: " + weight);
        if (weight != GOAL_WEIGHT && changed.equals(text)) {
            throw new IllegalStateException(example + " has no 'weight: " + GOAL_WEIGHT + "' to vary");
        }
        if (perConnection) {
            String before = changed;
            changed = changed.replace("weightPer: rule", "weightPer: connection");
            if (changed.equals(before)) {
                throw new IllegalStateException(example + " has no 'weightPer: rule' to turn into 'connection'");
            }
        }
        Files.createDirectories(resultsDir.resolve("sla"));
        Path copy = resultsDir.resolve("sla").resolve("crosstalk-" + weight + "x" + (perConnection ? "-per-connection" : "") + ".yaml");
        Files.writeString(copy, changed, StandardCharsets.UTF_8);
        return copy;
    }

    private static void writeCsv(RunContext context, List<Map<Case, Map<Integer, long[]>>> trials) {
        List<String> lines = new ArrayList<>();
        for (int t = 0; t < trials.size(); t++) {
            int trial = t + 1;
            trials.get(t).forEach((c, bySize) -> bySize.forEach((size, v) -> lines.add(String.format(
                    "%d,%s,%s,%d,%s,%d,%d,%d,%d,%d", trial, c.label(), c.orb().name().toLowerCase(), c.weight(),
                    c.perConnection() ? "connection" : "rule", c.streams(),
                    size, v[0], v[1], v[2]))));
        }
        context.writeCsv("crosstalk-assembly.csv",
                "trial,case,orb,weight,weight_per,secondary_streams,bytes,median_nanos,mean_nanos,p90_nanos", lines);
    }
}
