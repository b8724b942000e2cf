package org.irmi.isolation;

import java.time.Duration;
import java.util.Objects;

/** Bound checks for the config builders; every message names the field and the bound. */
final class Checks {
    private Checks() {
    }

    static double range(String field, double v, double min, double max) {
        if (!(v >= min && v <= max)) {
            throw new IllegalArgumentException(field + " must be between " + min + " and " + max
                    + ", was " + v);
        }
        return v;
    }

    static long duration(String field, Duration d, Duration min, Duration max) {
        Objects.requireNonNull(d, field);
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw new IllegalArgumentException(field + " must be between " + min + " and " + max
                    + ", was " + d);
        }
        return d.toNanos();
    }

    static String name(String field, String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException(field + " must name an adaptation module");
        }
        return name.trim();
    }
}
