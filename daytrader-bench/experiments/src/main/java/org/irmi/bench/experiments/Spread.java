package org.irmi.bench.experiments;

import java.util.Arrays;
import java.util.List;

/**
 * One figure measured over repeated trials: its median, minimum and maximum over the trials that
 * produced a finite value, and how many did. A trial that could not measure the figure (NaN) is
 * counted in {@code trials} but not in {@code n}.
 *
 * @param median the median of the finite values (the mean of the middle two for an even count), NaN when none
 * @param min the smallest finite value, NaN when none
 * @param max the largest finite value, NaN when none
 * @param n how many trials gave a finite value
 * @param trials how many trials were run
 */
public record Spread(double median, double min, double max, int n, int trials) {

    /** @return the spread of the given per-trial values (NaN entries are trials that measured nothing) */
    public static Spread of(List<Double> values) {
        double[] finite = values.stream().mapToDouble(Double::doubleValue).filter(Double::isFinite).sorted().toArray();
        if (finite.length == 0) {
            return new Spread(Double.NaN, Double.NaN, Double.NaN, 0, values.size());
        }
        int mid = finite.length / 2;
        double median = finite.length % 2 == 1 ? finite[mid] : (finite[mid - 1] + finite[mid]) / 2;
        return new Spread(median, finite[0], finite[finite.length - 1], finite.length, values.size());
    }

    /** @return the spread of the given per-trial values */
    public static Spread of(double... values) {
        return of(Arrays.stream(values).boxed().toList());
    }

    /** @return true when at least one trial measured the figure */
    public boolean measured() {
        return n > 0;
    }

    /**
     * @param format a {@link String#format} pattern for one value, e.g. {@code "%.2fx"}
     * @return "median (min-max)" or the median alone for one trial, "-" when nothing was measured
     */
    public String format(String format) {
        if (!measured()) {
            return "not measured";
        }
        String text = String.format(format, median);
        if (n > 1) {
            text += " (" + String.format(format, min) + " to " + String.format(format, max) + ")";
        }
        return text;
    }
}
