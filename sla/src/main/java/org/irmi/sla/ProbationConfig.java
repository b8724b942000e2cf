package org.irmi.sla;

import java.time.Duration;
import org.irmi.sla.internal.Check;

/**
 * Probation of a filtered request type after its cool-down: a trickle of it is let through, and it
 * is re-admitted once it has stayed healthy for {@code admitAfter} (filtered again otherwise).
 * YAML section {@code isolationPoints.poison.probation}.
 *
 * @param ratePerSecond trickle let through during probation, more than 0, at most 1000000/s (default 1/s)
 * @param admitAfter healthy time on probation before full re-admission, 1s to 24h (default 30s)
 */
public record ProbationConfig(double ratePerSecond, Duration admitAfter) {

  public static final ProbationConfig DEFAULT = new ProbationConfig(1, Duration.ofSeconds(30));

  /** Validates every field. */
  public ProbationConfig {
    Check c = new Check();
    c.rate("rate", ratePerSecond, 0, 1e6);
    c.duration("admitAfter", admitAfter, Duration.ofSeconds(1), Duration.ofHours(24));
    c.throwIfAny();
  }
}
