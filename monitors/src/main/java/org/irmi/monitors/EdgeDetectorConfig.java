package org.irmi.monitors;

import java.time.Duration;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

import org.irmi.sla.PoisonConfig.Resource;

/**
 * Thresholds of an {@link EdgeDetector}. Immutable; build with {@link #custom()}, each setter
 * validates its field and names the bound.
 *
 * <ul>
 *   <li>{@code throughputDropPercent} (X): rising edge needs throughput below {@code baseline * (1 - X/100)};</li>
 *   <li>{@code resourceRisePercent} (Y): and CPU, GC time or allocation above {@code max(baseline, floor) * (1 + Y/100)};</li>
 *   <li>{@code recoveryPercent} (R &lt; X, the hysteresis): falling edge when throughput is back above
 *       {@code baseline * (1 - R/100)} for {@code recoverySamples} samples in a row;</li>
 *   <li>{@code baselineSamples}: the baseline is the mean of the last that many normal samples;
 *       no edge is reported while fewer than {@code minBaselineSamples} of them carried traffic
 *       (throughput at least {@code minBaselineThroughput}): samples from before the load began
 *       are no baseline for a drop in it;</li>
 *   <li>{@code minBaselineThroughput}: below it throughput is too low for a drop to mean anything;</li>
 *   <li>floors: a resource's baseline is taken as at least its floor, so an idle baseline of 0 does
 *       not turn noise into an infinite rise;</li>
 *   <li>{@code maxEpisode}: an episode that never recovers ends as {@link EdgeEvent.Recovery#EXPIRED};</li>
 *   <li>{@code resources}: which resources may make a rising edge (default all three; the SLA's
 *       {@code poison.resources});</li>
 *   <li>{@code risingSamples}: the drop and the rise must both hold in that many samples in a row
 *       (one heavy request, one collection or one compilation fills a single sample; a poison
 *       message fills many).</li>
 * </ul>
 */
public final class EdgeDetectorConfig {

    /** Default X: 30 %. */
    public static final double DEFAULT_THROUGHPUT_DROP_PERCENT = org.irmi.sla.PoisonConfig.DEFAULT_THROUGHPUT_DROP_PERCENT;
    /** Default Y: 50 %. */
    public static final double DEFAULT_RESOURCE_RISE_PERCENT = org.irmi.sla.PoisonConfig.DEFAULT_RESOURCE_RISE_PERCENT;
    /** Default R: 15 %. */
    public static final double DEFAULT_RECOVERY_PERCENT = 15.0;
    /** Default recovered samples in a row: 1. */
    public static final int DEFAULT_RECOVERY_SAMPLES = 1;
    /** Default baseline length: 10 samples. */
    public static final int DEFAULT_BASELINE_SAMPLES = 10;
    /** Default samples before any edge: 3. */
    public static final int DEFAULT_MIN_BASELINE_SAMPLES = 3;
    /** Default lowest baseline throughput: 1 per second. */
    public static final double DEFAULT_MIN_BASELINE_THROUGHPUT = 1.0;
    /** Default CPU floor: 0.05 cores. */
    public static final double DEFAULT_CPU_FLOOR_CORES = 0.05;
    /** Default GC-time floor: 1 % of the time. */
    public static final double DEFAULT_GC_FLOOR_FRACTION = 0.01;
    /** Default allocation floor: 1 MiB/s. */
    public static final double DEFAULT_ALLOCATION_FLOOR_BYTES_PER_SECOND = 1_048_576.0;
    /** Default samples in a row that a rising edge needs: 1. */
    public static final int DEFAULT_RISING_SAMPLES = 1;
    /** Default longest episode: 60 s. */
    public static final Duration DEFAULT_MAX_EPISODE = Duration.ofSeconds(60);
    /** Default watched resources: all of them. */
    public static final Set<Resource> DEFAULT_RESOURCES =
            java.util.Collections.unmodifiableSet(EnumSet.copyOf(org.irmi.sla.PoisonConfig.DEFAULT_RESOURCES));

    private final double throughputDropPercent;
    private final double resourceRisePercent;
    private final double recoveryPercent;
    private final int recoverySamples;
    private final int baselineSamples;
    private final int minBaselineSamples;
    private final double minBaselineThroughput;
    private final double cpuFloorCores;
    private final double gcFloorFraction;
    private final double allocationFloorBytesPerSecond;
    private final Duration maxEpisode;
    private final Set<Resource> resources;
    private final int risingSamples;

    private EdgeDetectorConfig(Builder b) {
        this.resources = b.resources;
        this.throughputDropPercent = b.throughputDropPercent;
        this.resourceRisePercent = b.resourceRisePercent;
        this.recoveryPercent = b.recoveryPercent;
        this.recoverySamples = b.recoverySamples;
        this.baselineSamples = b.baselineSamples;
        this.minBaselineSamples = b.minBaselineSamples;
        this.minBaselineThroughput = b.minBaselineThroughput;
        this.cpuFloorCores = b.cpuFloorCores;
        this.gcFloorFraction = b.gcFloorFraction;
        this.allocationFloorBytesPerSecond = b.allocationFloorBytesPerSecond;
        this.maxEpisode = b.maxEpisode;
        this.risingSamples = b.risingSamples;
    }

    /** @return a builder starting from the defaults */
    public static Builder custom() {
        return new Builder();
    }

    /** @return the defaults */
    public static EdgeDetectorConfig ofDefaults() {
        return custom().build();
    }

    /** @return X: the throughput drop, percent, that a rising edge needs */
    public double throughputDropPercent() { return throughputDropPercent; }
    /** @return Y: the resource rise, percent, that a rising edge needs */
    public double resourceRisePercent() { return resourceRisePercent; }
    /** @return R: throughput within this percentage of the baseline ends an episode */
    public double recoveryPercent() { return recoveryPercent; }
    /** @return recovered samples in a row needed for a falling edge */
    public int recoverySamples() { return recoverySamples; }
    /** @return normal samples averaged into the baseline */
    public int baselineSamples() { return baselineSamples; }
    /** @return normal samples needed before any edge */
    public int minBaselineSamples() { return minBaselineSamples; }
    /** @return lowest baseline throughput, per second, at which a drop counts */
    public double minBaselineThroughput() { return minBaselineThroughput; }
    /** @return floor of the CPU baseline, cores */
    public double cpuFloorCores() { return cpuFloorCores; }
    /** @return floor of the GC-time baseline, fraction of time */
    public double gcFloorFraction() { return gcFloorFraction; }
    /** @return floor of the allocation baseline, bytes per second */
    public double allocationFloorBytesPerSecond() { return allocationFloorBytesPerSecond; }
    /** @return longest episode before it ends as EXPIRED */
    public Duration maxEpisode() { return maxEpisode; }
    /** @return the resources whose rise can make a rising edge (immutable, not empty) */
    public Set<Resource> resources() { return resources; }
    /** @return samples in a row that must each show the drop and the rise before a rising edge */
    public int risingSamples() { return risingSamples; }

    @Override
    public String toString() {
        return "EdgeDetectorConfig[drop=" + throughputDropPercent + "%, rise=" + resourceRisePercent + "%, recovery="
                + recoveryPercent + "% x" + recoverySamples + ", baseline=" + minBaselineSamples + ".." + baselineSamples
                + " samples, rising after " + risingSamples + " sample(s), maxEpisode=" + maxEpisode + ", resources=" + resources + "]";
    }

    /** Builder; NOT THREAD-SAFE. */
    public static final class Builder {
        private double throughputDropPercent = DEFAULT_THROUGHPUT_DROP_PERCENT;
        private double resourceRisePercent = DEFAULT_RESOURCE_RISE_PERCENT;
        private double recoveryPercent = DEFAULT_RECOVERY_PERCENT;
        private int recoverySamples = DEFAULT_RECOVERY_SAMPLES;
        private int baselineSamples = DEFAULT_BASELINE_SAMPLES;
        private int minBaselineSamples = DEFAULT_MIN_BASELINE_SAMPLES;
        private double minBaselineThroughput = DEFAULT_MIN_BASELINE_THROUGHPUT;
        private double cpuFloorCores = DEFAULT_CPU_FLOOR_CORES;
        private double gcFloorFraction = DEFAULT_GC_FLOOR_FRACTION;
        private double allocationFloorBytesPerSecond = DEFAULT_ALLOCATION_FLOOR_BYTES_PER_SECOND;
        private Duration maxEpisode = DEFAULT_MAX_EPISODE;
        private Set<Resource> resources = DEFAULT_RESOURCES;
        private int risingSamples = DEFAULT_RISING_SAMPLES;

        private Builder() {
        }

        /**
         * @param count samples in a row, each with the drop and a resource rise against the same
         *              baseline, that a rising edge needs, &gt;= 1 (1: the first such sample)
         * @return this
         */
        public Builder risingSamples(int count) {
            this.risingSamples = atLeast(count, 1, "risingSamples");
            return this;
        }

        /** @param watched resources whose rise can make a rising edge; at least one @return this */
        public Builder resources(Collection<Resource> watched) {
            Objects.requireNonNull(watched, "resources");
            if (watched.isEmpty()) {
                throw new IllegalArgumentException("resources must name at least one of " + EnumSet.allOf(Resource.class));
            }
            this.resources = java.util.Collections.unmodifiableSet(EnumSet.copyOf(watched));
            return this;
        }

        /** @param percent X, in (0, 100) @return this */
        public Builder throughputDropPercent(double percent) {
            this.throughputDropPercent = open(percent, 0, 100, "throughputDropPercent");
            return this;
        }

        /** @param percent Y, &gt; 0 @return this */
        public Builder resourceRisePercent(double percent) {
            this.resourceRisePercent = open(percent, 0, Double.MAX_VALUE, "resourceRisePercent");
            return this;
        }

        /** @param percent R, in [0, 100); must be below X (checked at build) @return this */
        public Builder recoveryPercent(double percent) {
            if (!(percent >= 0 && percent < 100)) {
                throw new IllegalArgumentException("recoveryPercent must be in [0, 100), was " + percent);
            }
            this.recoveryPercent = percent;
            return this;
        }

        /** @param count consecutive recovered samples needed, &gt;= 1 @return this */
        public Builder recoverySamples(int count) {
            this.recoverySamples = atLeast(count, 1, "recoverySamples");
            return this;
        }

        /** @param count samples averaged into the baseline, &gt;= 1 @return this */
        public Builder baselineSamples(int count) {
            this.baselineSamples = atLeast(count, 1, "baselineSamples");
            return this;
        }

        /** @param count baseline samples with traffic needed before any edge, &gt;= 1 and &lt;= baselineSamples @return this */
        public Builder minBaselineSamples(int count) {
            this.minBaselineSamples = atLeast(count, 1, "minBaselineSamples");
            return this;
        }

        /** @param perSecond lowest baseline throughput at which drops count, &gt;= 0 @return this */
        public Builder minBaselineThroughput(double perSecond) {
            this.minBaselineThroughput = notNegative(perSecond, "minBaselineThroughput");
            return this;
        }

        /** @param cores floor of the CPU baseline, &gt;= 0 @return this */
        public Builder cpuFloorCores(double cores) {
            this.cpuFloorCores = notNegative(cores, "cpuFloorCores");
            return this;
        }

        /** @param fraction floor of the GC-time baseline, &gt;= 0 @return this */
        public Builder gcFloorFraction(double fraction) {
            this.gcFloorFraction = notNegative(fraction, "gcFloorFraction");
            return this;
        }

        /** @param bytesPerSecond floor of the allocation baseline, &gt;= 0 @return this */
        public Builder allocationFloorBytesPerSecond(double bytesPerSecond) {
            this.allocationFloorBytesPerSecond = notNegative(bytesPerSecond, "allocationFloorBytesPerSecond");
            return this;
        }

        /** @param duration longest episode before it expires, &gt; 0 @return this */
        public Builder maxEpisode(Duration duration) {
            Objects.requireNonNull(duration, "maxEpisode");
            if (duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException("maxEpisode must be > 0, was " + duration);
            }
            this.maxEpisode = duration;
            return this;
        }

        /** @return the config; fails if recoveryPercent &gt;= throughputDropPercent or minBaselineSamples &gt; baselineSamples */
        public EdgeDetectorConfig build() {
            if (recoveryPercent >= throughputDropPercent) {
                throw new IllegalArgumentException("recoveryPercent (" + recoveryPercent + ") must be below throughputDropPercent ("
                        + throughputDropPercent + "), or the detector has no hysteresis");
            }
            if (minBaselineSamples > baselineSamples) {
                throw new IllegalArgumentException("minBaselineSamples (" + minBaselineSamples + ") must not exceed baselineSamples ("
                        + baselineSamples + ")");
            }
            return new EdgeDetectorConfig(this);
        }

        private static double open(double v, double low, double high, String field) {
            if (!(v > low && v < high)) {
                throw new IllegalArgumentException(field + " must be > " + low + (high < Double.MAX_VALUE ? " and < " + high : "") + ", was " + v);
            }
            return v;
        }

        private static double notNegative(double v, String field) {
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw new IllegalArgumentException(field + " must be a finite number >= 0, was " + v);
            }
            return v;
        }

        private static int atLeast(int v, int low, String field) {
            if (v < low) {
                throw new IllegalArgumentException(field + " must be >= " + low + ", was " + v);
            }
            return v;
        }
    }
}
