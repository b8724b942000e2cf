package org.irmi.isolation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Immutable settings of the QoS-crosstalk point, the same semantics as the SLA's {@code
 * isolationPoints.crosstalk} section. Built by {@link #custom()}.
 *
 * <p>With n active streams of weights w_i (W their sum), stream i reads at most
 * {@code clamp(baseReadBudgetBytes * n * w_i / W, minReadBudgetBytes, maxReadBudgetBytes)} bytes
 * per selector turn, and its {@code SO_RCVBUF} is that budget clamped to [minReceiveBufferBytes,
 * maxReceiveBufferBytes]. A turn thus reads about {@code n * baseReadBudgetBytes}, shared by
 * weight. A stream is active while it was read within {@code idleAfter}; idle connections get the
 * base budget.
 */
public final class CrosstalkConfig {
    public static final double DEFAULT_WEIGHT = 1;
    public static final int DEFAULT_BASE_READ_BUDGET_BYTES = 64 * 1024;
    public static final int DEFAULT_MIN_READ_BUDGET_BYTES = 1024;
    public static final int DEFAULT_MAX_READ_BUDGET_BYTES = 16 * 1024 * 1024;
    public static final int DEFAULT_MIN_RECEIVE_BUFFER_BYTES = 8 * 1024;
    public static final int DEFAULT_MAX_RECEIVE_BUFFER_BYTES = 4 * 1024 * 1024;
    public static final Duration DEFAULT_IDLE_AFTER = Duration.ofSeconds(1);

    private final List<WeightRule> rules;
    private final double defaultWeight;
    private final int baseReadBudgetBytes;
    private final int minReadBudgetBytes;
    private final int maxReadBudgetBytes;
    private final int minReceiveBufferBytes;
    private final int maxReceiveBufferBytes;
    private final long idleAfterNanos;

    private CrosstalkConfig(Builder b) {
        rules = List.copyOf(b.rules);
        defaultWeight = b.defaultWeight;
        baseReadBudgetBytes = b.baseReadBudgetBytes;
        minReadBudgetBytes = b.minReadBudgetBytes;
        maxReadBudgetBytes = b.maxReadBudgetBytes;
        minReceiveBufferBytes = b.minReceiveBufferBytes;
        maxReceiveBufferBytes = b.maxReceiveBufferBytes;
        idleAfterNanos = b.idleAfterNanos;
    }

    public static CrosstalkConfig ofDefaults() {
        return custom().build();
    }

    public static Builder custom() {
        return new Builder();
    }

    public List<WeightRule> rules() { return rules; }
    public double defaultWeight() { return defaultWeight; }
    public int baseReadBudgetBytes() { return baseReadBudgetBytes; }
    public int minReadBudgetBytes() { return minReadBudgetBytes; }
    public int maxReadBudgetBytes() { return maxReadBudgetBytes; }
    public int minReceiveBufferBytes() { return minReceiveBufferBytes; }
    public int maxReceiveBufferBytes() { return maxReceiveBufferBytes; }
    public long idleAfterNanos() { return idleAfterNanos; }

    /** Builds a {@link CrosstalkConfig}. */
    public static final class Builder {
        private final List<WeightRule> rules = new ArrayList<>();
        private double defaultWeight = DEFAULT_WEIGHT;
        private int baseReadBudgetBytes = DEFAULT_BASE_READ_BUDGET_BYTES;
        private int minReadBudgetBytes = DEFAULT_MIN_READ_BUDGET_BYTES;
        private int maxReadBudgetBytes = DEFAULT_MAX_READ_BUDGET_BYTES;
        private int minReceiveBufferBytes = DEFAULT_MIN_RECEIVE_BUFFER_BYTES;
        private int maxReceiveBufferBytes = DEFAULT_MAX_RECEIVE_BUFFER_BYTES;
        private long idleAfterNanos = DEFAULT_IDLE_AFTER.toNanos();

        private Builder() {
        }

        public Builder rule(WeightRule rule) {
            rules.add(rule);
            return this;
        }

        public Builder defaultWeight(double w) {
            if (!(w > 0 && w <= 1000)) {
                throw new IllegalArgumentException("crosstalk.defaultWeight must be more than 0 and"
                        + " at most 1000, was " + w);
            }
            defaultWeight = w;
            return this;
        }

        public Builder baseReadBudgetBytes(long v) {
            baseReadBudgetBytes = (int) Checks.range("crosstalk.baseReadBudget", v, 1024, 64L << 20);
            return this;
        }

        public Builder minReadBudgetBytes(long v) {
            minReadBudgetBytes = (int) Checks.range("crosstalk.minReadBudget", v, 256, 64L << 20);
            return this;
        }

        public Builder maxReadBudgetBytes(long v) {
            maxReadBudgetBytes = (int) Checks.range("crosstalk.maxReadBudget", v, 256, 1L << 30);
            return this;
        }

        public Builder minReceiveBufferBytes(long v) {
            minReceiveBufferBytes = (int) Checks.range("crosstalk.receiveBuffer.min", v, 1024,
                    256L << 20);
            return this;
        }

        public Builder maxReceiveBufferBytes(long v) {
            maxReceiveBufferBytes = (int) Checks.range("crosstalk.receiveBuffer.max", v, 1024,
                    256L << 20);
            return this;
        }

        public Builder idleAfter(Duration d) {
            idleAfterNanos = Checks.duration("crosstalk.idleAfter", d, Duration.ofMillis(1),
                    Duration.ofHours(1));
            return this;
        }

        public CrosstalkConfig build() {
            if (minReadBudgetBytes > maxReadBudgetBytes) {
                throw new IllegalArgumentException("crosstalk.minReadBudget must not exceed "
                        + "crosstalk.maxReadBudget");
            }
            if (minReceiveBufferBytes > maxReceiveBufferBytes) {
                throw new IllegalArgumentException("crosstalk.receiveBuffer.max must be at least "
                        + "crosstalk.receiveBuffer.min");
            }
            return new CrosstalkConfig(this);
        }
    }
}
