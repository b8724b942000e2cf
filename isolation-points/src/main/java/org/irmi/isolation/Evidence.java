package org.irmi.isolation;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The window values that made a point act, in the order they were added: e.g. {@code
 * queueEstimate=42, heapPressure=0.91}. Immutable. Built only when a point triggers, never on the
 * proceed path.
 */
public record Evidence(Map<String, Double> values) {
    /** No evidence. */
    public static final Evidence NONE = new Evidence(Map.of());

    public Evidence {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** @return a builder that keeps insertion order. */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the value, or NaN when absent. */
    public double get(String name) {
        Double v = values.get(name);
        return v == null ? Double.NaN : v;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        values.forEach((k, v) -> {
            if (sb.length() > 1) {
                sb.append(", ");
            }
            sb.append(k).append('=');
            if (v == Math.rint(v) && Math.abs(v) < 1e15) {
                sb.append(v.longValue());
            } else {
                sb.append(String.format(java.util.Locale.ROOT, "%.3f", v));
            }
        });
        return sb.append('}').toString();
    }

    /** Builds an {@link Evidence}. */
    public static final class Builder {
        private final Map<String, Double> values = new LinkedHashMap<>();

        /** Adds one named value. */
        public Builder put(String name, double value) {
            values.put(name, value);
            return this;
        }

        public Evidence build() {
            return new Evidence(values);
        }
    }
}
