package org.irmi.bench.experiments.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code STAT} lines of one child process, parsed: each sample is a row of longs whose first
 * column is the wall-clock time in milliseconds and whose other columns are cumulative counters
 * or gauges. Phases are cut by wall time, so samples from different processes line up.
 */
public final class Samples {

    private final List<long[]> rows = new ArrayList<>();

    /** Parses lines of space-separated longs (the text after {@code STAT }). */
    public static Samples parse(List<String> lines) {
        Samples samples = new Samples();
        for (String line : lines) {
            String[] cells = line.trim().split("\\s+");
            long[] row = new long[cells.length];
            try {
                for (int i = 0; i < cells.length; i++) {
                    row[i] = Long.parseLong(cells[i]);
                }
            } catch (NumberFormatException e) {
                continue; // a line cut short by the process ending
            }
            samples.rows.add(row);
        }
        return samples;
    }

    /** @return all rows, oldest first */
    public List<long[]> rows() {
        return rows;
    }

    /** @return whether there is no sample at all */
    public boolean isEmpty() {
        return rows.isEmpty();
    }

    /** @return the last sample taken at or before {@code wallMillis}, else the first sample */
    public long[] at(long wallMillis) {
        long[] best = rows.get(0);
        for (long[] row : rows) {
            if (row[0] <= wallMillis) {
                best = row;
            } else {
                break;
            }
        }
        return best;
    }

    /** @return the increase of a cumulative column between two wall times */
    public long delta(int column, long fromMillis, long toMillis) {
        if (rows.isEmpty()) {
            return 0;
        }
        return at(toMillis)[column] - at(fromMillis)[column];
    }

    /** @return the actual time covered between the samples used by {@link #delta}, in milliseconds */
    public long span(long fromMillis, long toMillis) {
        if (rows.isEmpty()) {
            return 0;
        }
        return at(toMillis)[0] - at(fromMillis)[0];
    }

    /**
     * Rates over time: for each sample after the first, the increase of {@code column} over the
     * last {@code windowMillis} divided by the window (per second), as the paper's Figure 5 does.
     *
     * @param originMillis wall time of x = 0
     * @return {x seconds, rate per second}
     */
    public double[][] windowedRate(int column, long originMillis, long windowMillis) {
        List<double[]> points = new ArrayList<>();
        for (long[] row : rows) {
            long from = row[0] - windowMillis;
            if (from < rows.get(0)[0]) {
                continue;
            }
            long[] start = at(from);
            double seconds = (row[0] - start[0]) / 1000.0;
            if (seconds <= 0) {
                continue;
            }
            points.add(new double[] {(row[0] - originMillis) / 1000.0, (row[column] - start[column]) / seconds});
        }
        return split(points);
    }

    /** @return {x seconds, value} for a gauge column */
    public double[][] gauge(int column, long originMillis) {
        List<double[]> points = new ArrayList<>();
        for (long[] row : rows) {
            points.add(new double[] {(row[0] - originMillis) / 1000.0, row[column]});
        }
        return split(points);
    }

    /**
     * Ratio of two cumulative columns' increases between consecutive samples over a window, e.g.
     * average RTT = d(rttSum) / d(calls).
     *
     * @param scale multiplied into the ratio (for unit changes)
     * @return {x seconds, ratio}, skipping windows where the denominator did not move
     */
    public double[][] windowedRatio(int numerator, int denominator, long originMillis, long windowMillis, double scale) {
        List<double[]> points = new ArrayList<>();
        for (long[] row : rows) {
            long[] start = at(row[0] - windowMillis);
            long d = row[denominator] - start[denominator];
            if (d <= 0) {
                continue;
            }
            points.add(new double[] {(row[0] - originMillis) / 1000.0, scale * (row[numerator] - start[numerator]) / d});
        }
        return split(points);
    }

    private static double[][] split(List<double[]> points) {
        double[] x = new double[points.size()];
        double[] y = new double[points.size()];
        for (int i = 0; i < points.size(); i++) {
            x[i] = points.get(i)[0];
            y[i] = points.get(i)[1];
        }
        return new double[][] {x, y};
    }
}
