package org.irmi.sla;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.irmi.sla.internal.Check;

/**
 * The QoS-crosstalk isolation point (acts on the reader thread). YAML section
 * {@code isolationPoints.crosstalk}.
 *
 * <p>With {@code n} active streams of weights {@code w_i}, stream {@code i} may read
 * {@code baseReadBudget * n * w_i / sum(w)} bytes per turn of the reader, and its {@code SO_RCVBUF} is
 * set in proportion to its weight and clamped to {@code [receiveBuffer.min, receiveBuffer.max]}. A
 * stream is active while it has had data within {@code idleAfter}.
 *
 * @param enabled whether the point acts (default true)
 * @param baseReadBudgetBytes read budget per stream per turn at weight 1, 1KiB to 64MiB (default 64KiB)
 * @param minReceiveBufferBytes lower bound of SO_RCVBUF, 1KiB to 256MiB (default 8KiB)
 * @param maxReceiveBufferBytes upper bound of SO_RCVBUF, 1KiB to 256MiB (default 4MiB), at least min
 * @param defaultWeight weight of streams no entry selects, more than 0, at most 1000 (default 1)
 * @param idleAfter time without data after which a stream no longer counts as active, 1ms to 1h (default 1s)
 * @param weights weights in order; the first match wins
 * @param weightPer whom a weight belongs to: each connection ({@link WeightPer#CONNECTION}, the default), or
 *     the rule, whose weight the connections it matches share ({@link WeightPer#RULE}; the connections no
 *     rule matches then share {@code defaultWeight})
 * @param minReadBudgetBytes least read budget a stream gets per turn, 256B to 64MiB (default 1KiB); not an SLA
 *     key, set only through {@link #custom()}
 * @param maxReadBudgetBytes most read budget a stream gets per turn, 256B to 1GiB (default 16MiB), at least
 *     the minimum; not an SLA key, set only through {@link #custom()}
 */
public record CrosstalkConfig(
    boolean enabled,
    long baseReadBudgetBytes,
    long minReceiveBufferBytes,
    long maxReceiveBufferBytes,
    double defaultWeight,
    Duration idleAfter,
    List<StreamWeight> weights,
    WeightPer weightPer,
    long minReadBudgetBytes,
    long maxReadBudgetBytes) {

  public static final long DEFAULT_BASE_READ_BUDGET_BYTES = 64 * 1024;
  public static final long DEFAULT_MIN_RECEIVE_BUFFER_BYTES = 8 * 1024;
  public static final long DEFAULT_MAX_RECEIVE_BUFFER_BYTES = 4 * 1024 * 1024;
  public static final double DEFAULT_WEIGHT = 1;
  public static final Duration DEFAULT_IDLE_AFTER = Duration.ofSeconds(1);
  public static final long DEFAULT_MIN_READ_BUDGET_BYTES = 1024;
  public static final long DEFAULT_MAX_READ_BUDGET_BYTES = 16 * 1024 * 1024;

  /**
   * Whom a weight belongs to. YAML values {@code connection} and {@code rule}.
   *
   * <p>{@code connection}: every connection a rule matches reads with the rule's weight, so N
   * connections of weight 1 together outweigh one of weight 8 once N passes 8. {@code rule}: the
   * connections a rule matches share its weight as one class of traffic (each gets the weight over
   * the number of its active connections), so a stream weighted 8 keeps 8/9 of the reader however
   * many unweighted connections come and go, as a class of a weighted fair queue does.
   */
  public enum WeightPer {
    CONNECTION("connection"), RULE("rule");

    private final String yaml;

    WeightPer(String yaml) {
      this.yaml = yaml;
    }

    /** @return the YAML spelling */
    public String yaml() {
      return yaml;
    }
  }

  /** Validates every field. */
  public CrosstalkConfig {
    weights = List.copyOf(weights);
    java.util.Objects.requireNonNull(weightPer, "weightPer");
    Check c = new Check();
    c.bytes("baseReadBudget", baseReadBudgetBytes, 1024, 64L << 20);
    c.bytes("receiveBuffer.min", minReceiveBufferBytes, 1024, 256L << 20);
    c.bytes("receiveBuffer.max", maxReceiveBufferBytes, 1024, 256L << 20);
    c.bytesAtLeast("receiveBuffer.max", maxReceiveBufferBytes, "receiveBuffer.min", minReceiveBufferBytes);
    c.rangeExclusiveMin("defaultWeight", defaultWeight, 0, 1000);
    c.duration("idleAfter", idleAfter, Duration.ofMillis(1), Duration.ofHours(1));
    c.bytes("minReadBudget", minReadBudgetBytes, 256, 64L << 20);
    c.bytes("maxReadBudget", maxReadBudgetBytes, 256, 1L << 30);
    c.bytesAtLeast("maxReadBudget", maxReadBudgetBytes, "minReadBudget", minReadBudgetBytes);
    c.throwIfAny();
  }

  /** All defaults, no weights. */
  public static CrosstalkConfig ofDefaults() {
    return custom().build();
  }

  /** A builder starting from the defaults. */
  public static Builder custom() {
    return new Builder();
  }

  /** Builder; {@link #build()} validates. */
  public static final class Builder {
    private boolean enabled = true;
    private long baseReadBudgetBytes = DEFAULT_BASE_READ_BUDGET_BYTES;
    private long minReceiveBufferBytes = DEFAULT_MIN_RECEIVE_BUFFER_BYTES;
    private long maxReceiveBufferBytes = DEFAULT_MAX_RECEIVE_BUFFER_BYTES;
    private double defaultWeight = DEFAULT_WEIGHT;
    private Duration idleAfter = DEFAULT_IDLE_AFTER;
    private final List<StreamWeight> weights = new ArrayList<>();
    private WeightPer weightPer = WeightPer.CONNECTION;
    private long minReadBudgetBytes = DEFAULT_MIN_READ_BUDGET_BYTES;
    private long maxReadBudgetBytes = DEFAULT_MAX_READ_BUDGET_BYTES;

    private Builder() {}

    public Builder enabled(boolean v) { enabled = v; return this; }
    public Builder baseReadBudgetBytes(long v) { baseReadBudgetBytes = v; return this; }
    public Builder minReceiveBufferBytes(long v) { minReceiveBufferBytes = v; return this; }
    public Builder maxReceiveBufferBytes(long v) { maxReceiveBufferBytes = v; return this; }
    public Builder defaultWeight(double v) { defaultWeight = v; return this; }
    public Builder idleAfter(Duration v) { idleAfter = v; return this; }
    public Builder addWeight(StreamWeight v) { weights.add(v); return this; }
    public Builder weightPer(WeightPer v) { weightPer = v; return this; }
    public Builder minReadBudgetBytes(long v) { minReadBudgetBytes = v; return this; }
    public Builder maxReadBudgetBytes(long v) { maxReadBudgetBytes = v; return this; }

    public CrosstalkConfig build() {
      return new CrosstalkConfig(enabled, baseReadBudgetBytes, minReceiveBufferBytes, maxReceiveBufferBytes,
          defaultWeight, idleAfter, weights, weightPer, minReadBudgetBytes, maxReadBudgetBytes);
    }
  }
}
