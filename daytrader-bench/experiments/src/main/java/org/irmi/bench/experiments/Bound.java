package org.irmi.bench.experiments;

/**
 * A threshold a median must meet: at least or at most a value.
 *
 * @param atLeast true for {@code >=}, false for {@code <=}
 * @param threshold the value
 */
public record Bound(boolean atLeast, double threshold) {

    /** @return a bound met by values {@code >= threshold} */
    public static Bound atLeast(double threshold) {
        return new Bound(true, threshold);
    }

    /** @return a bound met by values {@code <= threshold} */
    public static Bound atMost(double threshold) {
        return new Bound(false, threshold);
    }

    /** @return whether the value meets the bound (NaN never does) */
    public boolean test(double value) {
        if (Double.isNaN(value)) {
            return false;
        }
        return atLeast ? value >= threshold : value <= threshold;
    }

    /** @return ">= 2" or "<= 1.1" */
    public String symbol() {
        return (atLeast ? ">= " : "<= ") + trim(threshold);
    }

    static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
