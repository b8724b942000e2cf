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

import org.irmi.bench.experiments.Chart;
import org.irmi.bench.experiments.Experiment;
import org.irmi.bench.experiments.ExperimentResult;
import org.irmi.bench.experiments.Goal;
import org.irmi.bench.experiments.RunContext;
import org.irmi.bench.experiments.Table;
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
    static final int MANY_STREAMS = Integer.getInteger("irmi.crosstalk.streams", 4);
    static final int[] WEIGHTS = {1, 2, 4, 8};
    static final int GOAL_WEIGHT = 8;
    static final int GOAL_MIN_BYTES = 1 << 20;
    static final String SERVER_CPUS = "0";
    static final String CLIENT_CPUS = "1";

    /** One condition: which ORB, the large stream's weight (I-RMI only), how many 2 KB streams. */
    record Case(String label, OrbKind orb, int weight, int streams) {
    }

    @Override
    public String name() {
        return "crosstalk";
    }

    @Override
    public ExperimentResult run(RunContext context) throws Exception {
        int reps = switch (context.length()) {
            case TINY -> 5;
            case QUICK -> 7;
            case FULL -> 25;
        };
        int warmup = context.length() == org.irmi.bench.experiments.RunLength.FULL ? 3 : 1;
        long warmupMillis = warmupMillis(context.length());
        ExperimentResult result = new ExperimentResult(name(), "QoS crosstalk (Figures 8-9)");
        List<Case> cases = new ArrayList<>();
        if (OrbKind.selected().contains(OrbKind.PLAIN)) {
            cases.add(new Case("plain alone", OrbKind.PLAIN, 0, 0));
            cases.add(new Case("plain + 1 stream", OrbKind.PLAIN, 0, 1));
            cases.add(new Case("plain + " + MANY_STREAMS + " streams", OrbKind.PLAIN, 0, MANY_STREAMS));
        }
        if (!OrbKind.selected().contains(OrbKind.IRMI)) {
            result.note("I-RMI was not run: -Dirmi.orbs excludes it.");
        } else if (OrbKind.irmiAvailable()) {
            cases.add(new Case("I-RMI alone", OrbKind.IRMI, GOAL_WEIGHT, 0));
            // The CI configuration keeps the two ends of Figure 9 only.
            int[] weights = context.length() == org.irmi.bench.experiments.RunLength.TINY ? new int[] {1, GOAL_WEIGHT} : WEIGHTS;
            for (int weight : weights) {
                cases.add(new Case("I-RMI " + weight + "x + 1 stream", OrbKind.IRMI, weight, 1));
            }
            cases.add(new Case("I-RMI " + GOAL_WEIGHT + "x + " + MANY_STREAMS + " streams", OrbKind.IRMI, GOAL_WEIGHT, MANY_STREAMS));
        } else {
            result.note("I-RMI was not run: " + OrbKind.IRMI_ORB_CLASS + " is not on the class path.");
        }
        Map<Case, Map<Integer, long[]>> measured = new LinkedHashMap<>();
        for (Case c : cases) {
            try {
                measured.put(c, runCase(context, c, reps, warmup, warmupMillis));
            } catch (Exception e) {
                // One failed condition must not hide the others: record it and go on.
                String reason = e.getMessage() == null ? e.toString() : e.getMessage().lines().limit(4)
                        .reduce((a, b) -> a + " / " + b).orElse("");
                result.note("FAILED CONDITION '" + c.label() + "': " + reason);
                context.say("FAILED: " + c.label() + ": " + reason);
                measured.put(c, new TreeMap<>());
            }
        }
        writeCsv(context, measured);
        report(result, measured, reps);
        return result;
    }

    private Map<Integer, long[]> runCase(RunContext context, Case c, int reps, int warmup, long warmupMillis)
            throws Exception {
        String tag = "crosstalk-" + c.label().replaceAll("[^A-Za-z0-9]+", "-").toLowerCase();
        Path sla = c.orb() == OrbKind.IRMI ? slaWithWeight(context.resultsDir(), c.weight()) : null;
        try (Children children = new Children()) {
            ChildJvm server = children.add(ChildJvm.start(tag + "-server", SERVER_CPUS, context.classPath(),
                    withHeap(c.orb().jvmOptions(sla), "-Xmx512m"), CrosstalkServerMain.class, List.of("500"), context.logDir()));
            String ior = server.await("IOR", 30_000);
            String smallIor = server.await("SMALL", 1_000);
            List<String> clientOptions = withHeap(OrbKind.PLAIN.jvmOptions(null), "-Xmx256m");
            if (c.streams() > 0) {
                ChildJvm small = children.add(ChildJvm.start(tag + "-small", CLIENT_CPUS, context.classPath(), clientOptions,
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

    private static List<String> withHeap(List<String> options, String heap) {
        List<String> all = new ArrayList<>(options);
        all.add(heap);
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

    private static void writeCsv(RunContext context, Map<Case, Map<Integer, long[]>> measured) {
        List<String> lines = new ArrayList<>();
        measured.forEach((c, bySize) -> bySize.forEach((size, v) -> lines.add(String.format("%s,%s,%d,%d,%d,%d,%d,%d",
                c.label(), c.orb().name().toLowerCase(), c.weight(), c.streams(), size, v[0], v[1], v[2]))));
        context.writeCsv("crosstalk-assembly.csv",
                "case,orb,weight,secondary_streams,bytes,median_nanos,mean_nanos,p90_nanos", lines);
    }

    private void report(ExperimentResult result, Map<Case, Map<Integer, long[]>> measured, int reps) {
        List<String> header = new ArrayList<>(List.of("Message size"));
        measured.keySet().forEach(c -> header.add(c.label()));
        Table table = new Table("Median time to assemble a request (ms), " + reps + " requests per size", header, new ArrayList<>());
        for (int size : SIZES) {
            List<String> row = new ArrayList<>(List.of(sizeLabel(size)));
            measured.values().forEach(bySize -> row.add(bySize.containsKey(size)
                    ? String.format("%.2f", bySize.get(size)[0] / 1e6) : "n/a"));
            table.row(row.toArray(String[]::new));
        }
        result.table(table);

        Chart fig8 = Chart.of("crosstalk-fig8.png", "Figure 8. Time to assemble a request: alone vs with secondary 2 KB streams"
                + " (plain JacORB)", "message size (bytes)", "assembly time (ms, median)", true);
        Chart fig9 = Chart.of("crosstalk-fig9.png", "Figure 9. Time to assemble a request with one 2 KB stream, I-RMI weights"
                + " for the large stream", "message size (bytes)", "assembly time (ms, median)", true);
        Chart many = Chart.of("crosstalk-many.png", "Assembly time with " + MANY_STREAMS + " secondary streams: plain vs I-RMI "
                + GOAL_WEIGHT + "x", "message size (bytes)", "assembly time (ms, median)", true);
        measured.forEach((c, bySize) -> {
            double[] x = bySize.keySet().stream().mapToDouble(Integer::doubleValue).toArray();
            double[] y = bySize.values().stream().mapToDouble(v -> v[0] / 1e6).toArray();
            if (c.orb() == OrbKind.PLAIN) {
                fig8.line(c.label(), x, y);
            }
            if (c.orb() == OrbKind.IRMI && c.streams() <= 1) {
                fig9.line(c.label(), x, y);
            }
            if (c.streams() == MANY_STREAMS || c.streams() == 0) {
                many.line(c.label(), x, y);
            }
        });
        result.chart(fig8).chart(fig9).chart(many);

        Case plainAlone = find(measured, OrbKind.PLAIN, 0, 0);
        Case irmiAlone = find(measured, OrbKind.IRMI, GOAL_WEIGHT, 0);
        for (int streams : new int[] {1, MANY_STREAMS}) {
            String description = "large-message (>= 1 MB) assembly with " + streams + " secondary stream" + (streams > 1 ? "s" : "")
                    + " <= 1.2x alone (I-RMI " + GOAL_WEIGHT + "x)";
            double plainRatio = worstRatio(measured, plainAlone, find(measured, OrbKind.PLAIN, 0, streams));
            result.figure("plain.ratio." + streams + "streams", plainRatio);
            result.figure("plain.totalRatio." + streams + "streams",
                    totalRatio(measured, plainAlone, find(measured, OrbKind.PLAIN, 0, streams)));
            Case irmiCase = find(measured, OrbKind.IRMI, GOAL_WEIGHT, streams);
            if (irmiCase == null || irmiAlone == null) {
                result.goal(new Goal(name(), description, String.format("%.2fx", plainRatio), "not run", false));
                continue;
            }
            double irmiRatio = worstRatio(measured, irmiAlone, irmiCase);
            result.figure("irmi.ratio." + streams + "streams", irmiRatio);
            result.figure("irmi.totalRatio." + streams + "streams", totalRatio(measured, irmiAlone, irmiCase));
            result.goal(new Goal(name(), description, String.format("%.2fx", plainRatio), String.format("%.2fx", irmiRatio),
                    irmiRatio <= 1.2));
        }
        result.note("Ratios are the worst, over message sizes of 1 MB and more, of the median assembly time with the"
                + " secondary streams to the median alone on the same ORB. Assembly time runs from the client's"
                + " System.nanoTime() stamp, taken just before it marshals the request, to the servant's dispatch.");
    }

    private static Case find(Map<Case, Map<Integer, long[]>> measured, OrbKind orb, int weight, int streams) {
        for (Case c : measured.keySet()) {
            if (c.orb() == orb && c.streams() == streams && (orb == OrbKind.PLAIN || c.weight() == weight)) {
                return c;
            }
        }
        return null;
    }

    /**
     * The summed median assembly times over the sizes of 1 MB and more, with the secondary streams,
     * over the same sum alone: one figure per case that a single noisy size cannot swing.
     */
    private static double totalRatio(Map<Case, Map<Integer, long[]>> measured, Case alone, Case loaded) {
        if (alone == null || loaded == null) {
            return Double.NaN;
        }
        double sumAlone = 0;
        double sumLoaded = 0;
        for (int size : SIZES) {
            long[] a = measured.get(alone).get(size);
            long[] b = measured.get(loaded).get(size);
            if (size >= GOAL_MIN_BYTES && a != null && b != null) {
                sumAlone += a[0];
                sumLoaded += b[0];
            }
        }
        return sumAlone > 0 ? sumLoaded / sumAlone : Double.NaN;
    }

    private static double worstRatio(Map<Case, Map<Integer, long[]>> measured, Case alone, Case loaded) {
        if (alone == null || loaded == null) {
            return Double.NaN;
        }
        double worst = Double.NaN;
        for (int size : SIZES) {
            long[] a = measured.get(alone).get(size);
            long[] b = measured.get(loaded).get(size);
            if (size >= GOAL_MIN_BYTES && a != null && b != null && a[0] > 0) {
                double ratio = b[0] / (double) a[0];
                worst = Double.isNaN(worst) ? ratio : Math.max(worst, ratio);
            }
        }
        return worst;
    }

    static String sizeLabel(int bytes) {
        return bytes >= 1 << 20 ? (bytes >> 20) + " MB" : (bytes >> 10) + " KB";
    }
}
