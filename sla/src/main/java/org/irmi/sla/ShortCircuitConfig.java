package org.irmi.sla;

import java.util.Objects;
import java.util.Optional;

/**
 * Module {@code short-circuit}: the call completes locally without reaching the target (the paper's
 * call elimination).
 *
 * @param result the result to return, as text the module converts to the operation's return type;
 *     empty means the type's default (null, 0, false, empty)
 * @param dropOneways whether oneway calls are silently dropped (default true)
 */
public record ShortCircuitConfig(Optional<String> result, boolean dropOneways) implements ModuleConfig {

  public static final boolean DEFAULT_DROP_ONEWAYS = true;

  /** Null-checks. */
  public ShortCircuitConfig {
    Objects.requireNonNull(result, "result");
  }

  /** Default result, oneways dropped. */
  public static ShortCircuitConfig ofDefaults() {
    return new ShortCircuitConfig(Optional.empty(), DEFAULT_DROP_ONEWAYS);
  }

  @Override
  public String name() {
    return SHORT_CIRCUIT;
  }
}
