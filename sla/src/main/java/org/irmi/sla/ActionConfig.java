package org.irmi.sla;

import java.util.Objects;
import java.util.Optional;

/**
 * What an isolation point does once it has detected its condition: the adaptation module with its
 * parameters, and optionally a fallback action used when the module cannot act (e.g. {@code reroute}
 * finds no replica). YAML: {@code action: {module: reroute, replicas: ..., fallback: {module: reject}}}.
 *
 * @param module the module and its parameters
 * @param fallback the action used when the module cannot act
 */
public record ActionConfig(ModuleConfig module, Optional<ActionConfig> fallback) {

  /** The default action of every isolation point: reject with TRANSIENT. */
  public static final ActionConfig DEFAULT = of(RejectConfig.ofDefaults());

  /** Null-checks. */
  public ActionConfig {
    Objects.requireNonNull(module, "module");
    Objects.requireNonNull(fallback, "fallback");
  }

  /** An action without fallback. */
  public static ActionConfig of(ModuleConfig module) {
    return new ActionConfig(module, Optional.empty());
  }

  /** An action with a fallback. */
  public static ActionConfig of(ModuleConfig module, ActionConfig fallback) {
    return new ActionConfig(module, Optional.of(fallback));
  }
}
