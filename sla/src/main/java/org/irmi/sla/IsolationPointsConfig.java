package org.irmi.sla;

import java.util.Objects;
import java.util.Optional;

/**
 * The isolation points an SLA configures. A point whose section is absent is not installed; a point
 * whose section says {@code enabled: false} is installed but does not act.
 *
 * @param slowClient section {@code isolationPoints.slowClient}
 * @param poison section {@code isolationPoints.poison}
 * @param crosstalk section {@code isolationPoints.crosstalk}
 */
public record IsolationPointsConfig(
    Optional<SlowClientConfig> slowClient, Optional<PoisonConfig> poison, Optional<CrosstalkConfig> crosstalk) {

  /** No isolation point. */
  public static final IsolationPointsConfig NONE =
      new IsolationPointsConfig(Optional.empty(), Optional.empty(), Optional.empty());

  /** Null-checks. */
  public IsolationPointsConfig {
    Objects.requireNonNull(slowClient, "slowClient");
    Objects.requireNonNull(poison, "poison");
    Objects.requireNonNull(crosstalk, "crosstalk");
  }
}
