package org.irmi.isolation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Immutable settings of the poison-message point, built by {@link #custom()}.
 *
 * <p>The same semantics as the SLA's {@code isolationPoints.poison} section (the edge thresholds
 * there configure the monitors' edge detector that feeds this point).
 *
 * <p>Naming by cost (first episode, with {@code attribution}): a signature is named when its share of the episode's CPU or
 * allocation is at least {@code minCostShare} and its cost per request is at least {@code
 * costFactor} times the baseline cost per request. Naming by set difference (the paper): the
 * suspects S1 - S2, intersected over episodes, name a signature once one suspect remains after at
 * least {@code minEpisodes} (the SLA's {@code confirmEpisodes}) episodes, and only if it is uncommon (at most {@code maxCommonShare}
 * of baseline requests) and, when costs are known, costlier than the baseline. Operations that
 * match {@code neverFilter} are never filtered. Healing: after {@code coolDown} a filtered
 * signature goes on probation, where {@code probationRatePerSecond} requests a second at most
 * (one at a time) are let through; it is re-admitted once it has stayed healthy for {@code
 * admitAfter}, and filtered again, with a doubled cool-down up to {@code maxCoolDown}, otherwise.
 */
public final class PoisonConfig {
    public static final double DEFAULT_COST_FACTOR = 10.0;
    public static final double DEFAULT_MIN_COST_SHARE = 0.5;
    public static final int DEFAULT_MIN_EPISODES = 2;
    public static final double DEFAULT_MAX_COMMON_SHARE = 0.05;
    public static final int DEFAULT_MIN_BASELINE_REQUESTS = 20;
    public static final Duration DEFAULT_COOL_DOWN = Duration.ofSeconds(60);
    public static final Duration DEFAULT_MAX_COOL_DOWN = Duration.ofMinutes(10);
    public static final double DEFAULT_PROBATION_RATE_PER_SECOND = 1.0;
    public static final Duration DEFAULT_ADMIT_AFTER = Duration.ofSeconds(30);
    public static final Duration DEFAULT_ADVERTISE_OVERLOAD = Duration.ofSeconds(5);
    public static final String DEFAULT_MODULE = "reject";
    public static final Duration DEFAULT_MIN_EPISODE = Duration.ofSeconds(1);

    private final double costFactor;
    private final double minCostShare;
    private final int minEpisodes;
    private final double maxCommonShare;
    private final int minBaselineRequests;
    private final long coolDownNanos;
    private final long maxCoolDownNanos;
    private final long probeIntervalNanos;
    private final long admitAfterNanos;
    private final boolean attribution;
    private final Predicate<String> neverFilter;
    private final long advertiseOverloadNanos;
    private final List<SignatureRule> signatures;
    private final String module;
    private final long minEpisodeNanos;

    private PoisonConfig(Builder b) {
        minEpisodeNanos = b.minEpisodeNanos;
        costFactor = b.costFactor;
        minCostShare = b.minCostShare;
        minEpisodes = b.minEpisodes;
        maxCommonShare = b.maxCommonShare;
        minBaselineRequests = b.minBaselineRequests;
        coolDownNanos = b.coolDownNanos;
        maxCoolDownNanos = b.maxCoolDownNanos;
        probeIntervalNanos = b.probeIntervalNanos;
        admitAfterNanos = b.admitAfterNanos;
        attribution = b.attribution;
        neverFilter = b.neverFilter;
        advertiseOverloadNanos = b.advertiseOverloadNanos;
        signatures = List.copyOf(b.signatures);
        module = b.module;
    }

    public static PoisonConfig ofDefaults() {
        return custom().build();
    }

    public static Builder custom() {
        return new Builder();
    }

    public double costFactor() { return costFactor; }
    public double minCostShare() { return minCostShare; }
    public int minEpisodes() { return minEpisodes; }
    public double maxCommonShare() { return maxCommonShare; }
    public int minBaselineRequests() { return minBaselineRequests; }
    public long coolDownNanos() { return coolDownNanos; }
    public long maxCoolDownNanos() { return maxCoolDownNanos; }
    /** @return the least time between two probation probes (1 / probation rate). */
    public long probeIntervalNanos() { return probeIntervalNanos; }
    /** @return healthy time on probation before a signature is re-admitted. */
    public long admitAfterNanos() { return admitAfterNanos; }
    /** @return whether per-request costs may name the offender. */
    public boolean attribution() { return attribution; }
    /** @return whether {@code operation} must never be filtered. */
    public boolean neverFilter(String operation) { return neverFilter.test(operation); }
    public long advertiseOverloadNanos() { return advertiseOverloadNanos; }
    public List<SignatureRule> signatures() { return signatures; }
    public String module() { return module; }
    /** @return the shortest episode analysed; shorter ones are ignored (a GC pause, a blip). */
    public long minEpisodeNanos() { return minEpisodeNanos; }

    /** @return how many argument bytes the reader must hand over for {@code operation} (0: none). */
    public int argumentBytesNeeded(String operation) {
        int n = 0;
        for (SignatureRule r : signatures) {
            if (r.operation().matches(operation)) {
                n = Math.max(n, r.bytesNeeded());
            }
        }
        return n;
    }

    /** Builds a {@link PoisonConfig}. */
    public static final class Builder {
        private double costFactor = DEFAULT_COST_FACTOR;
        private double minCostShare = DEFAULT_MIN_COST_SHARE;
        private int minEpisodes = DEFAULT_MIN_EPISODES;
        private double maxCommonShare = DEFAULT_MAX_COMMON_SHARE;
        private int minBaselineRequests = DEFAULT_MIN_BASELINE_REQUESTS;
        private long coolDownNanos = DEFAULT_COOL_DOWN.toNanos();
        private long maxCoolDownNanos = DEFAULT_MAX_COOL_DOWN.toNanos();
        private long probeIntervalNanos = Math.round(1e9 / DEFAULT_PROBATION_RATE_PER_SECOND);
        private long admitAfterNanos = DEFAULT_ADMIT_AFTER.toNanos();
        private boolean attribution = true;
        private Predicate<String> neverFilter = op -> false;
        private long advertiseOverloadNanos = DEFAULT_ADVERTISE_OVERLOAD.toNanos();
        private final List<SignatureRule> signatures = new ArrayList<>();
        private String module = DEFAULT_MODULE;
        private boolean maxCoolDownSet;
        private long minEpisodeNanos = DEFAULT_MIN_EPISODE.toNanos();

        /** The shortest episode analysed. */
        public Builder minEpisode(Duration d) {
            minEpisodeNanos = Checks.duration("poison.minEpisode", d, Duration.ZERO,
                    Duration.ofHours(1));
            return this;
        }

        private Builder() {
        }

        public Builder costFactor(double v) {
            costFactor = Checks.range("poison.costFactor", v, 1.5, 1e6);
            return this;
        }

        public Builder minCostShare(double v) {
            minCostShare = Checks.range("poison.minCostShare", v, 0.1, 1.0);
            return this;
        }

        public Builder minEpisodes(int v) {
            minEpisodes = (int) Checks.range("poison.confirmEpisodes", v, 1, 100);
            return this;
        }

        public Builder maxCommonShare(double v) {
            maxCommonShare = Checks.range("poison.maxCommonShare", v, 0.0, 1.0);
            return this;
        }

        public Builder minBaselineRequests(int v) {
            minBaselineRequests = (int) Checks.range("poison.minBaselineRequests", v, 1, 1e9);
            return this;
        }

        /** Time filtered before probation; the maximum cool-down follows at 16x unless set. */
        public Builder coolDown(Duration d) {
            coolDownNanos = Checks.duration("poison.coolDown", d, Duration.ofMillis(1),
                    Duration.ofDays(1));
            if (!maxCoolDownSet) {
                maxCoolDownNanos = Math.max(DEFAULT_MAX_COOL_DOWN.toNanos(), coolDownNanos * 16);
            }
            return this;
        }

        public Builder maxCoolDown(Duration d) {
            maxCoolDownSet = true;
            maxCoolDownNanos = Checks.duration("poison.maxCoolDown", d, Duration.ofMillis(1),
                    Duration.ofDays(7));
            return this;
        }

        /** Probes let through per second on probation (one at a time). */
        public Builder probationRatePerSecond(double rate) {
            double r = Checks.range("poison.probation.rate", rate, 1e-6, 1e6);
            probeIntervalNanos = Math.max(1, Math.round(1e9 / r));
            return this;
        }

        /** Healthy time on probation before re-admission. */
        public Builder admitAfter(Duration d) {
            admitAfterNanos = Checks.duration("poison.probation.admitAfter", d, Duration.ZERO,
                    Duration.ofDays(1));
            return this;
        }

        /** Whether per-request CPU and allocation may name the offender (default true). */
        public Builder attribution(boolean on) {
            attribution = on;
            return this;
        }

        /** Operations that are never filtered, whatever the evidence. */
        public Builder neverFilter(Predicate<String> operations) {
            neverFilter = java.util.Objects.requireNonNull(operations, "neverFilter");
            return this;
        }

        /** How long after an episode or a new filter the node advertises overload to callers. */
        public Builder advertiseOverload(Duration d) {
            advertiseOverloadNanos = Checks.duration("poison.advertiseOverload", d,
                    Duration.ZERO, Duration.ofHours(1));
            return this;
        }

        public Builder signature(SignatureRule rule) {
            signatures.add(rule);
            return this;
        }

        public Builder module(String name) {
            module = Checks.name("poison.action.module", name);
            return this;
        }

        public PoisonConfig build() {
            if (maxCoolDownNanos < coolDownNanos) {
                throw new IllegalArgumentException("poison.maxCoolDown must be at least "
                        + "poison.coolDown");
            }
            return new PoisonConfig(this);
        }
    }
}
