package org.irmi.sla;

import java.util.Objects;
import java.util.Optional;

/**
 * The isolation points an SLA configures. A point whose section is absent is not installed; a section
 * with {@code enabled: false} keeps its settings but switches the point off (check
 * {@code enabled()} of the section before installing or consulting the point).
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
