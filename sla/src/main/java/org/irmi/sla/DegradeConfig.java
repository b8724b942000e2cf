package org.irmi.sla;

import org.irmi.sla.internal.Check;

/**
 * Module {@code degrade}: an application-supplied reducer shrinks the call's parameters.
 *
 * @param reducer the name under which the application registered its reducer (required)
 */
public record DegradeConfig(String reducer) implements ModuleConfig {

  /** Validates. */
  public DegradeConfig {
    Check c = new Check();
    c.notBlank("reducer", reducer);
    c.throwIfAny();
  }

  @Override
  public String name() {
    return DEGRADE;
  }
}
