package org.irmi.isolation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiPredicate;
import org.irmi.sla.CausalPair;

/**
 * Immutable settings of the slow-client point, the same semantics as the SLA's {@code
 * isolationPoints.slowClient} section. Built by {@link #custom()}; each setter checks its bound
 * and names it; defaults are the {@code DEFAULT_*} constants.
 *
 * <p>A guarded call triggers when (see {@code SlowClientPolicy} for the formulas) the queue
 * condition (growth at least {@code queueGrowthPerSecond}, or the estimated or gauged queue at
 * least {@code maxQueueLength}) holds together with resource pressure (local CPU, heap or GC, or
 * the target host's report over a remote threshold); or, with {@code reactToPeerOverload}, when
 * the target host advertises overload. A triggered pair is released once the trigger is gone, at
 * least {@code minHold} has passed and, while pressure lasts, its queue has drained to {@code
 * queueLow}.
 */
public final class SlowClientConfig {
    public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(10);
    public static final double DEFAULT_QUEUE_GROWTH_PER_SECOND = 10;
    public static final double DEFAULT_MAX_QUEUE_LENGTH = 1000;
    public static final double DEFAULT_CPU_HIGH = 0.90;
    public static final double DEFAULT_HEAP_PRESSURE_HIGH = 0.80;
    public static final double DEFAULT_GC_PER_SECOND_HIGH = 5.0;
    public static final double DEFAULT_REMOTE_CPU_HIGH = 0.90;
    public static final double DEFAULT_REMOTE_HEAP_PRESSURE_HIGH = 0.85;
    public static final int DEFAULT_REMOTE_QUEUE_HIGH = 1000;
    public static final double DEFAULT_REMOTE_GC_PER_SECOND_HIGH = 10;
    public static final Duration DEFAULT_REMOTE_REPORT_MAX_AGE = Duration.ofSeconds(10);
    public static final Duration DEFAULT_MIN_HOLD = Duration.ofSeconds(1);
    public static final String DEFAULT_MODULE = "reject";

    private final List<CausalPair> pairs;
    private final BiPredicate<String, String> guards;
    private final long windowNanos;
    private final double queueGrowthPerSecond;
    private final double maxQueueLength;
    private final double queueLow;
    private final Optional<String> queueGauge;
    private final double cpuHigh;
    private final double heapPressureHigh;
    private final double gcPerSecondHigh;
    private final double remoteCpuHigh;
    private final double remoteHeapPressureHigh;
    private final int remoteQueueHigh;
    private final double remoteGcPerSecondHigh;
    private final boolean reactToPeerOverload;
    private final long remoteReportMaxAgeNanos;
    private final long minHoldNanos;
    private final String module;
    private final long remoteRttHighNanos;

    private SlowClientConfig(Builder b) {
        remoteRttHighNanos = b.remoteRttHighNanos;
        pairs = List.copyOf(b.pairs);
        guards = b.guards;
        windowNanos = b.windowNanos;
        queueGrowthPerSecond = b.queueGrowthPerSecond;
        maxQueueLength = b.maxQueueLength;
        queueLow = Double.isNaN(b.queueLow) ? b.maxQueueLength / 10 : b.queueLow;
        queueGauge = b.queueGauge;
        cpuHigh = b.cpuHigh;
        heapPressureHigh = b.heapPressureHigh;
        gcPerSecondHigh = b.gcPerSecondHigh;
        remoteCpuHigh = b.remoteCpuHigh;
        remoteHeapPressureHigh = b.remoteHeapPressureHigh;
        remoteQueueHigh = b.remoteQueueHigh;
        remoteGcPerSecondHigh = b.remoteGcPerSecondHigh;
        reactToPeerOverload = b.reactToPeerOverload;
        remoteReportMaxAgeNanos = b.remoteReportMaxAgeNanos;
        minHoldNanos = b.minHoldNanos;
        module = b.module;
    }

    /** @return the defaults, with no causal pairs (only remote load can trigger). */
    public static SlowClientConfig ofDefaults() {
        return custom().build();
    }

    /** @return a builder starting from the defaults. */
    public static Builder custom() {
        return new Builder();
    }

    public List<CausalPair> pairs() { return pairs; }
    /** @return whether the point guards calls of {@code operation} to {@code targetName}. */
    public boolean guards(String targetName, String operation) { return guards.test(targetName, operation); }
    public long windowNanos() { return windowNanos; }
    public double queueGrowthPerSecond() { return queueGrowthPerSecond; }
    public double maxQueueLength() { return maxQueueLength; }
    public double queueLow() { return queueLow; }
    /** @return the name of the application queue gauge that replaces the estimate, if any. */
    public Optional<String> queueGauge() { return queueGauge; }
    public double cpuHigh() { return cpuHigh; }
    public double heapPressureHigh() { return heapPressureHigh; }
    public double gcPerSecondHigh() { return gcPerSecondHigh; }
    public double remoteCpuHigh() { return remoteCpuHigh; }
    public double remoteHeapPressureHigh() { return remoteHeapPressureHigh; }
    public int remoteQueueHigh() { return remoteQueueHigh; }
    public double remoteGcPerSecondHigh() { return remoteGcPerSecondHigh; }
    public boolean reactToPeerOverload() { return reactToPeerOverload; }
    public long remoteReportMaxAgeNanos() { return remoteReportMaxAgeNanos; }
    public long minHoldNanos() { return minHoldNanos; }
    /** @return the name of the adaptation module that decides for triggered calls. */
    public String module() { return module; }
    /** @return the round trip to the target above which it counts as pressed (0: off). */
    public long remoteRttHighNanos() { return remoteRttHighNanos; }

    /** Builds a {@link SlowClientConfig}. */
    public static final class Builder {
        private final List<CausalPair> pairs = new ArrayList<>();
        private BiPredicate<String, String> guards = (t, o) -> true;
        private long windowNanos = DEFAULT_WINDOW.toNanos();
        private double queueGrowthPerSecond = DEFAULT_QUEUE_GROWTH_PER_SECOND;
        private double maxQueueLength = DEFAULT_MAX_QUEUE_LENGTH;
        private double queueLow = Double.NaN;
        private Optional<String> queueGauge = Optional.empty();
        private double cpuHigh = DEFAULT_CPU_HIGH;
        private double heapPressureHigh = DEFAULT_HEAP_PRESSURE_HIGH;
        private double gcPerSecondHigh = DEFAULT_GC_PER_SECOND_HIGH;
        private double remoteCpuHigh = DEFAULT_REMOTE_CPU_HIGH;
        private double remoteHeapPressureHigh = DEFAULT_REMOTE_HEAP_PRESSURE_HIGH;
        private int remoteQueueHigh = DEFAULT_REMOTE_QUEUE_HIGH;
        private double remoteGcPerSecondHigh = DEFAULT_REMOTE_GC_PER_SECOND_HIGH;
        private boolean reactToPeerOverload = true;
        private long remoteReportMaxAgeNanos = DEFAULT_REMOTE_REPORT_MAX_AGE.toNanos();
        private long minHoldNanos = DEFAULT_MIN_HOLD.toNanos();
        private String module = DEFAULT_MODULE;
        private long remoteRttHighNanos;

        private Builder() {
        }

        /**
         * The smoothed round trip to the target host above which it counts as remote pressure,
         * like a load report over its thresholds (default off). The direct evidence of a slow
         * downstream node when it sends no load report (a peer without I-RMI, or a node whose
         * slowness is not in its own CPU).
         */
        public Builder remoteRttHigh(Duration d) {
            remoteRttHighNanos = Checks.duration("slowClient.remoteLoad.rtt", d, Duration.ZERO,
                    Duration.ofHours(1));
            return this;
        }

        /** Adds a causal pair; pair names are unique. */
        public Builder pair(CausalPair pair) {
            for (CausalPair p : pairs) {
                if (p.name().equals(pair.name())) {
                    throw new IllegalArgumentException("slowClient: two causal pairs are named `"
                            + pair.name() + "`");
                }
            }
            pairs.add(pair);
            return this;
        }

        /** Which calls (target name, operation) are guarded; default all. */
        public Builder guards(BiPredicate<String, String> guards) {
            this.guards = java.util.Objects.requireNonNull(guards, "guards");
            return this;
        }

        /** The rate window, 100ms..10min. */
        public Builder window(Duration window) {
            windowNanos = Checks.duration("monitors.requestRates.window", window,
                    Duration.ofMillis(100), Duration.ofMinutes(10));
            return this;
        }

        public Builder queueGrowthPerSecond(double v) {
            queueGrowthPerSecond = Checks.range("slowClient.queueGrowth", v, 0, 1e9);
            return this;
        }

        public Builder maxQueueLength(double v) {
            maxQueueLength = Checks.range("slowClient.maxQueueLength", v, 1, 1e9);
            return this;
        }

        /** The queue a triggered pair must drain to while pressure lasts (default max / 10). */
        public Builder queueLow(double v) {
            queueLow = Checks.range("slowClient.queueLow", v, 0, 1e9);
            return this;
        }

        public Builder queueGauge(String name) {
            queueGauge = Optional.of(name);
            return this;
        }

        public Builder cpuHigh(double v) {
            cpuHigh = Checks.range("slowClient.cpu", v, 0.01, 1.0);
            return this;
        }

        public Builder heapPressureHigh(double v) {
            heapPressureHigh = Checks.range("slowClient.heapPressure", v, 0.0, 1.0);
            return this;
        }

        public Builder gcPerSecondHigh(double v) {
            gcPerSecondHigh = Checks.range("slowClient.gcRate", v, 0, 1e6);
            return this;
        }

        public Builder remoteCpuHigh(double v) {
            remoteCpuHigh = Checks.range("slowClient.remoteLoad.cpu", v, 0.01, 1.0);
            return this;
        }

        public Builder remoteHeapPressureHigh(double v) {
            remoteHeapPressureHigh = Checks.range("slowClient.remoteLoad.heapPressure", v, 0.01, 1.0);
            return this;
        }

        public Builder remoteQueueHigh(int v) {
            remoteQueueHigh = (int) Checks.range("slowClient.remoteLoad.queueLength", v, 1, 1e9);
            return this;
        }

        public Builder remoteGcPerSecondHigh(double v) {
            remoteGcPerSecondHigh = Checks.range("slowClient.remoteLoad.gcRate", v, 0, 1e6);
            return this;
        }

        /** Whether a target host's advertised overload alone triggers (cooperation). */
        public Builder reactToPeerOverload(boolean v) {
            reactToPeerOverload = v;
            return this;
        }

        public Builder remoteReportMaxAge(Duration d) {
            remoteReportMaxAgeNanos = Checks.duration("slowClient.remoteReportMaxAge", d,
                    Duration.ofMillis(10), Duration.ofHours(1));
            return this;
        }

        /** The least time a triggered pair stays triggered (damps flapping). */
        public Builder minHold(Duration d) {
            minHoldNanos = Checks.duration("slowClient.minHold", d, Duration.ZERO,
                    Duration.ofHours(1));
            return this;
        }

        /** The adaptation module's name. */
        public Builder module(String name) {
            module = Checks.name("slowClient.action.module", name);
            return this;
        }

        public SlowClientConfig build() {
            if (!Double.isNaN(queueLow) && queueLow >= maxQueueLength) {
                throw new IllegalArgumentException("slowClient.queueLow (" + queueLow
                        + ") must be below slowClient.maxQueueLength (" + maxQueueLength + ")");
            }
            return new SlowClientConfig(this);
        }
    }
}
