package org.irmi.bench.experiments.internal.crosstalk;

import static org.irmi.bench.experiments.internal.crosstalk.CrosstalkExperiment.GOAL_MIN_BYTES;
import static org.irmi.bench.experiments.internal.crosstalk.CrosstalkExperiment.GOAL_WEIGHT;
import static org.irmi.bench.experiments.internal.crosstalk.CrosstalkExperiment.MANY_STREAMS;
import static org.irmi.bench.experiments.internal.crosstalk.CrosstalkExperiment.SIZES;
import static org.irmi.bench.experiments.internal.crosstalk.CrosstalkExperiment.WEIGHTS;
import static org.irmi.bench.experiments.internal.crosstalk.CrosstalkExperiment.streamsLabel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.irmi.bench.experiments.Bound;
import org.irmi.bench.experiments.Chart;
import org.irmi.bench.experiments.ExperimentResult;
import org.irmi.bench.experiments.Goal;
import org.irmi.bench.experiments.Harm;
import org.irmi.bench.experiments.Spread;
import org.irmi.bench.experiments.Table;
import org.irmi.bench.experiments.internal.OrbKind;
import org.irmi.bench.experiments.internal.crosstalk.CrosstalkExperiment.Case;

/**
 * The crosstalk experiment's tables, charts and goals from its interleaved trials. A trial holds,
 * per condition and message size, the median assembly time of that condition's requests. Goals
 * are per-trial ratios (loaded over alone, same ORB, same trial), summarised as median, min and
 * max over the trials; tables and charts show the median over the trials of each median.
 */
final class CrosstalkReport {

    /** Two weights' curves count as ordered when the heavier is at most this much above the lighter (noise). */
    static final double ORDER_TOLERANCE = 1.10;

    private CrosstalkReport() {
    }

    static void report(ExperimentResult result, List<Map<Case, Map<Integer, long[]>>> trials, int reps) {
        Map<Case, Map<Integer, Double>> curves = medianCurves(trials);
        List<String> header = new ArrayList<>(List.of("Message size"));
        curves.keySet().forEach(c -> header.add(c.label()));
        Table table = new Table("Median time to read a request at the IIOP level (ms): " + reps
                + " requests per size and trial, median over " + trials.size() + " trial(s)", header, new ArrayList<>());
        for (int size : SIZES) {
            List<String> row = new ArrayList<>(List.of(sizeLabel(size)));
            curves.values().forEach(bySize -> row.add(bySize.containsKey(size)
                    ? String.format("%.2f", bySize.get(size) / 1e6) : "n/a"));
            table.row(row.toArray(String[]::new));
        }
        result.table(table);
        charts(result, curves);

        // Worst >= 1 MB ratio per stream count, per trial, on both ORBs (I-RMI at the goal weight).
        Map<Integer, List<Double>> plainByStreams = new java.util.TreeMap<>();
        Map<Integer, List<Double>> irmiByStreams = new java.util.TreeMap<>();
        Table byStreams = new Table("Worst ratio over sizes >= 1 MB of the time to read a request with N secondary 2 KB"
                + " streams to alone (median and range over the trials)", List.of("Secondary streams", "plain JacORB",
                "I-RMI " + GOAL_WEIGHT + "x", "plain's harm (>= 2x)"), new ArrayList<>());
        for (int streams = 1; streams <= MANY_STREAMS; streams++) {
            List<Double> plain = new ArrayList<>();
            List<Double> irmi = new ArrayList<>();
            List<Double> plainTotal = new ArrayList<>();
            List<Double> irmiTotal = new ArrayList<>();
            for (Map<Case, Map<Integer, long[]>> trial : trials) {
                plain.add(worstRatio(trial, find(trial, OrbKind.PLAIN, 0, 0), find(trial, OrbKind.PLAIN, 0, streams)));
                irmi.add(worstRatio(trial, find(trial, OrbKind.IRMI, GOAL_WEIGHT, 0), find(trial, OrbKind.IRMI, GOAL_WEIGHT, streams)));
                plainTotal.add(totalRatio(trial, find(trial, OrbKind.PLAIN, 0, 0), find(trial, OrbKind.PLAIN, 0, streams)));
                irmiTotal.add(totalRatio(trial, find(trial, OrbKind.IRMI, GOAL_WEIGHT, 0),
                        find(trial, OrbKind.IRMI, GOAL_WEIGHT, streams)));
            }
            if (plain.stream().noneMatch(Double::isFinite) && irmi.stream().noneMatch(Double::isFinite)) {
                continue; // this stream count was not in the plan (the tiny run keeps 1 and the most)
            }
            plainByStreams.put(streams, plain);
            irmiByStreams.put(streams, irmi);
            String suffix = streams + "streams";
            result.figure("plain.ratio." + suffix, Spread.of(plain).median());
            result.figure("irmi.ratio." + suffix, Spread.of(irmi).median());
            result.figure("plain.totalRatio." + suffix, Spread.of(plainTotal).median());
            result.figure("irmi.totalRatio." + suffix, Spread.of(irmiTotal).median());
            Harm harm = new Harm("the same ratio on plain JacORB", Spread.of(plain), Bound.atLeast(2));
            byStreams.row(String.valueOf(streams), Spread.of(plain).format("%.2fx"),
                    irmi.stream().anyMatch(Double::isFinite) ? Spread.of(irmi).format("%.2fx") : "not run",
                    harm.shown() ? "shown" : "not shown");
        }
        result.table(byStreams);
        // The weight's own effect with the most streams, on I-RMI alone: 1x (the N streams share weight 1
        // against the large stream's 1 under weightPer: rule) against 8x.
        List<Double> oneX = new ArrayList<>();
        for (Map<Case, Map<Integer, long[]>> trial : trials) {
            oneX.add(worstRatio(trial, find(trial, OrbKind.IRMI, GOAL_WEIGHT, 0), find(trial, OrbKind.IRMI, 1, MANY_STREAMS)));
        }
        if (oneX.stream().anyMatch(Double::isFinite)) {
            result.figure("irmi.ratio.1x." + MANY_STREAMS + "streams", Spread.of(oneX).median());
        }
        // The comparison of the full run: the same SLA with the weights taken per connection.
        List<Double> perConnection = new ArrayList<>();
        for (Map<Case, Map<Integer, long[]>> trial : trials) {
            Case pc = trial.keySet().stream().filter(Case::perConnection).findFirst().orElse(null);
            perConnection.add(worstRatio(trial, find(trial, OrbKind.IRMI, GOAL_WEIGHT, 0), pc));
        }
        if (perConnection.stream().anyMatch(Double::isFinite)) {
            result.figure("irmi.ratio.perConnection." + MANY_STREAMS + "streams", Spread.of(perConnection).median());
            result.note(String.format("The SLA shares each weight among the connections of its rule (weightPer: rule): the %d"
                    + " secondary streams together read what one unweighted stream would. With weightPer: connection (each"
                    + " stream weighted 1 on its own, so together %d/%d of the large stream's reads), I-RMI %dx with %s took"
                    + " %s its time alone (worst size >= 1 MB), against %s with weightPer: rule.",
                    MANY_STREAMS, MANY_STREAMS, GOAL_WEIGHT, GOAL_WEIGHT, streamsLabel(MANY_STREAMS),
                    Spread.of(perConnection).format("%.2fx"),
                    Spread.of(irmiByStreams.getOrDefault(MANY_STREAMS, List.of())).format("%.2fx")));
        }
        int harmStreams = fewestStreamsShowingHarm(plainByStreams);
        result.figure("plain.fewestStreamsShowingHarm", harmStreams);
        // The goal is one stream and four; where one stream does not show the harm on this
        // machine, the goal moves to the fewest streams that do (its allowance) and one stream is reported.
        java.util.SortedSet<Integer> goalStreams = new java.util.TreeSet<>(List.of(MANY_STREAMS));
        if (harmStreams > 0) {
            goalStreams.add(harmStreams);
        } else {
            goalStreams.add(1);
        }
        for (int streams : goalStreams) {
            List<Double> plain = plainByStreams.getOrDefault(streams, List.of());
            List<Double> irmi = irmiByStreams.getOrDefault(streams, List.of());
            boolean irmiRan = irmi.stream().anyMatch(Double::isFinite);
            String which = streams == harmStreams && streams > 1 ? " (the fewest that show the harm in this run)" : "";
            result.goal(new Goal("crosstalk", "assembly-" + streamsLabel(streams).replace(' ', '-'),
                    "time to read a >= 1 MB request with " + streamsLabel(streams) + " of 2 KB" + which
                            + " / alone, worst size (I-RMI " + GOAL_WEIGHT + "x)", "%.2fx",
                    Spread.of(plain), irmiRan ? Spread.of(irmi) : null, Bound.atMost(1.2),
                    new Harm("the same ratio on plain JacORB", Spread.of(plain), Bound.atLeast(2))));
        }
        if (harmStreams != 1 && plainByStreams.containsKey(1)) {
            result.note(String.format("With one secondary 2 KB stream, plain JacORB's worst ratio was %s: %s. %s",
                    Spread.of(plainByStreams.get(1)).format("%.2fx"),
                    harmStreams > 0 ? "the harm (2x) needs " + streamsLabel(harmStreams) + " on this machine, so the"
                            + " one-stream goal is evaluated there (the issue's allowance) and one stream is reported here"
                            : "no stream count up to " + MANY_STREAMS + " showed the harm (2x) in this run",
                    "I-RMI " + GOAL_WEIGHT + "x with one stream: " + Spread.of(irmiByStreams.getOrDefault(1, List.of()))
                            .format("%.2fx") + "."));
        }
        int violations = orderViolations(curves, MANY_STREAMS);
        int violationsOne = orderViolations(curves, 1);
        result.figure("irmi.weightOrderViolations", violations);
        result.figure("irmi.weightOrderViolations.1stream", violationsOne);
        if (violations >= 0) {
            result.goal(new Goal("crosstalk", "weights-order", "sizes >= 1 MB where a heavier I-RMI weight's curve (1x, 2x, 4x, 8x,"
                    + " " + MANY_STREAMS + " secondary 2 KB streams) lies more than 10% above a lighter one's, on the medians over"
                    + " the trials", "%.0f", null, Spread.of(violations), Bound.atMost(0),
                    new Harm("worst >= 1 MB ratio with " + streamsLabel(MANY_STREAMS) + " on plain JacORB",
                            Spread.of(plainByStreams.getOrDefault(MANY_STREAMS, List.of())), Bound.atLeast(2))));
        } else {
            // --quick and CI run two of the four weights: the order is a full run's goal, not one missed here
            result.note("The weights' order (1x, 2x, 4x, 8x) is a goal of the full run only: this run measured "
                    + "fewer weights, so it is not evaluated (and not counted) here.");
        }
        if (violationsOne >= 0) {
            result.note("The weights' order with one 2 KB stream (Figure 9 as the paper draws it): " + violationsOne
                    + " size(s) >= 1 MB out of order. The goal takes the order with " + streamsLabel(MANY_STREAMS)
                    + ", the most contention this run makes (whether plain JacORB showed the harm there is in the"
                    + " goal's row): with one stream the reader is seldom contended, and equal curves differ by noise"
                    + " alone.");
        }
        result.note("Assembly time is what the paper measures: the time to read a request at the IIOP level, from the"
                + " read that returned the request's first byte to the read that completed it, on the server. Plain JacORB"
                + " is watched through a server socket factory that follows the GIOP framing of what its reader threads"
                + " read (it changes nothing about the sockets); I-RMI through its message assembly listener on the"
                + " selector thread. The client's marshalling is not in it.");
        result.note("Ratios are per trial: the worst, over message sizes of 1 MB and more, of the median time with the"
                + " secondary streams to the median alone on the same ORB in the same trial; the goals give their median"
                + " and range over the trials. Curves 'ordered' allow a heavier weight to lie up to 10% above a lighter"
                + " one (run-to-run noise between equal curves is about that large).");
    }

    private static void charts(ExperimentResult result, Map<Case, Map<Integer, Double>> curves) {
        Chart fig8 = Chart.of("crosstalk-fig8.png", "Figure 8. Time to read a request: alone vs with secondary 2 KB streams"
                + " (plain JacORB)", "message size (bytes)", "IIOP read time (ms, median)", true);
        Chart fig9 = Chart.of("crosstalk-fig9.png", "Figure 9. Time to read a request with one 2 KB stream, I-RMI weights"
                + " for the large stream", "message size (bytes)", "IIOP read time (ms, median)", true);
        Chart many = Chart.of("crosstalk-many.png", "Read time with " + MANY_STREAMS + " secondary streams: plain vs I-RMI"
                + " weights", "message size (bytes)", "IIOP read time (ms, median)", true);
        curves.forEach((c, bySize) -> {
            double[] x = bySize.keySet().stream().mapToDouble(Integer::doubleValue).toArray();
            double[] y = bySize.values().stream().mapToDouble(v -> v / 1e6).toArray();
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
    }

    /** Per condition and size: the median over the trials of each trial's median. */
    static Map<Case, Map<Integer, Double>> medianCurves(List<Map<Case, Map<Integer, long[]>>> trials) {
        Map<Case, Map<Integer, Double>> curves = new LinkedHashMap<>();
        for (Case c : trials.get(0).keySet()) {
            Map<Integer, Double> bySize = new java.util.TreeMap<>();
            for (int size : SIZES) {
                List<Double> values = new ArrayList<>();
                for (Map<Case, Map<Integer, long[]>> trial : trials) {
                    long[] v = trial.getOrDefault(c, Map.of()).get(size);
                    values.add(v == null ? Double.NaN : (double) v[0]);
                }
                Spread spread = Spread.of(values);
                if (spread.measured()) {
                    bySize.put(size, spread.median());
                }
            }
            curves.put(c, bySize);
        }
        return curves;
    }

    /**
     * @return how many sizes of 1 MB and more have a heavier weight's curve (with {@code streams}
     *     secondary streams) more than
     *     {@link #ORDER_TOLERANCE} above the next lighter one's, or -1 when the weights did not all run
     */
    static int orderViolations(Map<Case, Map<Integer, Double>> curves, int streams) {
        List<Map<Integer, Double>> byWeight = new ArrayList<>();
        for (int weight : WEIGHTS) {
            Map<Integer, Double> curve = null;
            for (Map.Entry<Case, Map<Integer, Double>> e : curves.entrySet()) {
                Case c = e.getKey();
                if (c.orb() == OrbKind.IRMI && c.streams() == streams && c.weight() == weight && !c.perConnection()) {
                    curve = e.getValue();
                }
            }
            if (curve == null) {
                return -1;
            }
            byWeight.add(curve);
        }
        int violations = 0;
        for (int size : SIZES) {
            if (size < GOAL_MIN_BYTES) {
                continue;
            }
            for (int i = 1; i < byWeight.size(); i++) {
                Double lighter = byWeight.get(i - 1).get(size);
                Double heavier = byWeight.get(i).get(size);
                if (lighter == null || heavier == null || heavier > lighter * ORDER_TOLERANCE) {
                    violations++;
                    break;
                }
            }
        }
        return violations;
    }

    /**
     * @return the fewest secondary streams whose median worst ratio on plain JacORB shows the harm
     *     (at least 2x), or 0 when no measured count did
     */
    static int fewestStreamsShowingHarm(Map<Integer, List<Double>> plainByStreams) {
        for (Map.Entry<Integer, List<Double>> e : plainByStreams.entrySet()) {
            Spread spread = Spread.of(e.getValue());
            if (spread.measured() && spread.median() >= 2) {
                return e.getKey();
            }
        }
        return 0;
    }

    static Case find(Map<Case, Map<Integer, long[]>> trial, OrbKind orb, int weight, int streams) {
        for (Case c : trial.keySet()) {
            if (c.orb() == orb && c.streams() == streams && !c.perConnection() && (orb == OrbKind.PLAIN || c.weight() == weight)) {
                return c;
            }
        }
        return null;
    }

    /**
     * The summed median times over the sizes of 1 MB and more, with the secondary streams, over the
     * same sum alone: one figure per trial that a single noisy size cannot swing (the CI check).
     */
    static double totalRatio(Map<Case, Map<Integer, long[]>> trial, Case alone, Case loaded) {
        if (alone == null || loaded == null) {
            return Double.NaN;
        }
        double sumAlone = 0;
        double sumLoaded = 0;
        for (int size : SIZES) {
            long[] a = trial.get(alone).get(size);
            long[] b = trial.get(loaded).get(size);
            if (size >= GOAL_MIN_BYTES && a != null && b != null) {
                sumAlone += a[0];
                sumLoaded += b[0];
            }
        }
        return sumAlone > 0 ? sumLoaded / sumAlone : Double.NaN;
    }

    /** The worst ratio over the sizes of 1 MB and more of the loaded median to the alone median. */
    static double worstRatio(Map<Case, Map<Integer, long[]>> trial, Case alone, Case loaded) {
        if (alone == null || loaded == null) {
            return Double.NaN;
        }
        double worst = Double.NaN;
        for (int size : SIZES) {
            long[] a = trial.get(alone).get(size);
            long[] b = trial.get(loaded).get(size);
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
