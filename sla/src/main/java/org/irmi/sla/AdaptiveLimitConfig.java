package org.irmi.sla;

import java.time.Duration;
import java.util.Objects;
import org.irmi.sla.internal.Check;

/**
 * Module {@code adaptive-limit}: a concurrency limit adapted by a gradient or AIMD algorithm.
 * Only the parameters of the chosen algorithm may be written in the SLA.
 *
 * @param algorithm {@code gradient} or {@code aimd} (default gradient)
 * @param initialLimit starting limit (default 20)
 * @param minLimit lower bound (1 to 100000, default 1)
 * @param maxLimit upper bound (1 to 100000, default 1000); min &lt;= initial &lt;= max
 * @param gradient gradient parameters (defaults when not written)
 * @param aimd AIMD parameters (defaults when not written)
 */
public record AdaptiveLimitConfig(
    Algorithm algorithm, int initialLimit, int minLimit, int maxLimit, Gradient gradient, Aimd aimd)
    implements ModuleConfig {

  /** The limit algorithm. */
  public enum Algorithm { GRADIENT, AIMD }

  public static final Algorithm DEFAULT_ALGORITHM = Algorithm.GRADIENT;
  public static final int DEFAULT_INITIAL_LIMIT = 20;
  public static final int DEFAULT_MIN_LIMIT = 1;
  public static final int DEFAULT_MAX_LIMIT = 1000;

  /**
   * Gradient parameters: {@code gradient = max(0.5, min(1, rttTolerance * longRtt / shortRtt))},
   * {@code newLimit = limit * gradient + queueSize}, smoothed by {@code smoothing}.
   *
   * @param smoothing weight of the new limit, more than 0 and at most 1 (default 0.2)
   * @param rttTolerance tolerated ratio of short to long RTT, 1 to 100 (default 1.5)
   * @param longWindow samples in the long RTT average, 10 to 100000 (default 600)
   * @param queueSize head room added each update, 0 to 10000 (default 4)
   */
  public record Gradient(double smoothing, double rttTolerance, int longWindow, int queueSize) {
    public static final Gradient DEFAULT = new Gradient(0.2, 1.5, 600, 4);

    /** Validates every field. */
    public Gradient {
      Check c = new Check();
      c.rangeExclusiveMin("smoothing", smoothing, 0, 1);
      c.range("rttTolerance", rttTolerance, 1, 100);
      c.range("longWindow", longWindow, 10, 100_000);
      c.range("queueSize", queueSize, 0, 10_000);
      c.throwIfAny();
    }
  }

  /**
   * AIMD parameters: on success {@code limit += increase}; on a drop or a call slower than
   * {@code timeout}, {@code limit = limit * backoffRatio}.
   *
   * @param backoffRatio multiplicative decrease, 0.5 to 0.99 (default 0.9)
   * @param increase additive increase, 1 to 1000 (default 1)
   * @param timeout a call slower than this counts as a drop, 1ms to 1h (default 5s)
   */
  public record Aimd(double backoffRatio, int increase, Duration timeout) {
    public static final Aimd DEFAULT = new Aimd(0.9, 1, Duration.ofSeconds(5));

    /** Validates every field. */
    public Aimd {
      Check c = new Check();
      c.range("backoffRatio", backoffRatio, 0.5, 0.99);
      c.range("increase", increase, 1, 1000);
      c.duration("timeout", timeout, Duration.ofMillis(1), Duration.ofHours(1));
      c.throwIfAny();
    }
  }

  /** Validates every field and the order of the limits. */
  public AdaptiveLimitConfig {
    Objects.requireNonNull(algorithm, "algorithm");
    Objects.requireNonNull(gradient, "gradient");
    Objects.requireNonNull(aimd, "aimd");
    Check c = new Check();
    c.range("minLimit", minLimit, 1, 100_000);
    c.range("maxLimit", maxLimit, 1, 100_000);
    c.range("initialLimit", initialLimit, 1, 100_000);
    if (minLimit > maxLimit) {
      c.fail("minLimit", "must not exceed maxLimit (" + maxLimit + "), was " + minLimit);
    } else if (initialLimit < minLimit || initialLimit > maxLimit) {
      c.fail("initialLimit", "must be between minLimit (" + minLimit + ") and maxLimit (" + maxLimit + "), was " + initialLimit);
    }
    c.throwIfAny();
  }

  /** Gradient with all defaults. */
  public static AdaptiveLimitConfig ofDefaults() {
    return new AdaptiveLimitConfig(DEFAULT_ALGORITHM, DEFAULT_INITIAL_LIMIT, DEFAULT_MIN_LIMIT, DEFAULT_MAX_LIMIT,
        Gradient.DEFAULT, Aimd.DEFAULT);
  }

  @Override
  public String name() {
    return ADAPTIVE_LIMIT;
  }
}
