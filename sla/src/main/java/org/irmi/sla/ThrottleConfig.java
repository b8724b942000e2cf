package org.irmi.sla;

import org.irmi.sla.internal.Check;

/**
 * Module {@code throttle}: a token bucket refilled at {@code rate}, holding at most {@code burst} tokens.
 *
 * @param ratePerSecond calls per second let through (more than 0, at most 1e9; required)
 * @param burst bucket size in calls (1 to 1000000000, default 10)
 */
public record ThrottleConfig(double ratePerSecond, int burst) implements ModuleConfig {

  public static final int DEFAULT_BURST = 10;

  /** Validates every field. */
  public ThrottleConfig {
    Check c = new Check();
    c.rate("rate", ratePerSecond, 0, 1e9);
    c.range("burst", burst, 1, 1_000_000_000);
    c.throwIfAny();
  }

  /** {@code rate} per second with the default burst. */
  public static ThrottleConfig of(double ratePerSecond) {
    return new ThrottleConfig(ratePerSecond, DEFAULT_BURST);
  }

  @Override
  public String name() {
    return THROTTLE;
  }
}
