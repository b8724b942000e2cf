package org.irmi.monitors;

import java.time.Duration;
import java.util.Objects;

/**
 * Immutable shape of a sliding window: its length and how many buckets it is cut into.
 *
 * <p>The window covers the current bucket plus the {@code buckets - 1} closed buckets before it;
 * one bucket lasts {@code windowLength / buckets}. Finer buckets make the window slide more smoothly
 * and cost O(buckets) memory and O(buckets) for min/max snapshots; counts, sums and rates stay O(1).
 *
 * <p>Build with {@link #custom()}; each setter validates its field and names the bound it breaks.
 * THREAD-SAFE (immutable).
 */
public final class WindowConfig {

    /** Default window length: 10 seconds. */
    public static final Duration DEFAULT_WINDOW_LENGTH = Duration.ofSeconds(10);
    /** Default number of buckets: 10 (one per second with the default length). */
    public static final int DEFAULT_BUCKETS = 10;
    /** Upper bound on buckets, to keep snapshots cheap. */
    public static final int MAX_BUCKETS = 3_600;
    /** Shortest allowed bucket: 1 millisecond. */
    public static final long MIN_BUCKET_NANOS = 1_000_000L;

    private static final WindowConfig DEFAULTS = custom().build();

    private final Duration windowLength;
    private final int buckets;

    private WindowConfig(Builder b) {
        this.windowLength = b.windowLength;
        this.buckets = b.buckets;
    }

    /** @return a builder starting from the defaults */
    public static Builder custom() {
        return new Builder();
    }

    /** @return the default config: 10 s in 10 buckets */
    public static WindowConfig ofDefaults() {
        return DEFAULTS;
    }

    /**
     * Shorthand for {@code custom().windowLength(length).buckets(buckets).build()}.
     *
     * @param length  window length
     * @param buckets number of buckets
     * @return the validated config
     */
    public static WindowConfig of(Duration length, int buckets) {
        return custom().windowLength(length).buckets(buckets).build();
    }

    /** @return the window length */
    public Duration windowLength() {
        return windowLength;
    }

    /** @return the window length, nanoseconds (a whole number of buckets) */
    public long windowNanos() {
        return bucketNanos() * buckets;
    }

    /** @return the number of buckets */
    public int buckets() {
        return buckets;
    }

    /** @return the length of one bucket, nanoseconds */
    public long bucketNanos() {
        return windowLength.toNanos() / buckets;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WindowConfig w && w.buckets == buckets && w.windowLength.equals(windowLength);
    }

    @Override
    public int hashCode() {
        return Objects.hash(windowLength, buckets);
    }

    @Override
    public String toString() {
        return "WindowConfig[windowLength=" + windowLength + ", buckets=" + buckets + "]";
    }

    /** Builder of {@link WindowConfig}; validates each field as it is set. NOT THREAD-SAFE. */
    public static final class Builder {
        private Duration windowLength = DEFAULT_WINDOW_LENGTH;
        private int buckets = DEFAULT_BUCKETS;

        private Builder() {
        }

        /**
         * @param length window length; at least 1 ms
         * @return this builder
         */
        public Builder windowLength(Duration length) {
            Objects.requireNonNull(length, "windowLength");
            if (length.toNanos() < MIN_BUCKET_NANOS) {
                throw new IllegalArgumentException("windowLength must be at least 1ms, was " + length);
            }
            this.windowLength = length;
            return this;
        }

        /**
         * @param count number of buckets; 1 to 3600 ({@link WindowConfig#MAX_BUCKETS})
         * @return this builder
         */
        public Builder buckets(int count) {
            if (count < 1 || count > MAX_BUCKETS) {
                throw new IllegalArgumentException("buckets must be between 1 and " + MAX_BUCKETS + ", was " + count);
            }
            this.buckets = count;
            return this;
        }

        /** @return the config; fails if a bucket would be shorter than 1 ms */
        public WindowConfig build() {
            long bucketNanos = windowLength.toNanos() / buckets;
            if (bucketNanos < MIN_BUCKET_NANOS) {
                throw new IllegalArgumentException("windowLength / buckets must be at least 1ms, was "
                        + windowLength + " / " + buckets + " = " + bucketNanos + "ns; use fewer buckets");
            }
            return new WindowConfig(this);
        }
    }
}
