package org.irmi.sla;

import java.util.Objects;
import org.irmi.sla.internal.Check;

/**
 * A causal pair: each incoming call of an operation matching {@code incoming} causes {@code fanout}
 * outgoing calls of an operation matching {@code outgoing} on a target matching {@code target}. The
 * slow-client point keeps one rate window per pair; {@code in * fanout - out} estimates the growth of
 * the queue between them.
 *
 * @param incoming glob over this service's incoming operations
 * @param target glob over outgoing call targets (the name the isolation point gives the target)
 * @param outgoing glob over the outgoing operations
 * @param fanout outgoing calls per incoming call, greater than 0 and at most 10000 (default 1)
 */
public record CausalPair(OperationPattern incoming, OperationPattern target, OperationPattern outgoing, double fanout) {

  /** Default outgoing calls per incoming call. */
  public static final double DEFAULT_FANOUT = 1.0;

  /** Validates every field. */
  public CausalPair {
    Objects.requireNonNull(incoming, "incoming");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(outgoing, "outgoing");
    Check c = new Check();
    c.rangeExclusiveMin("fanout", fanout, 0, 10_000);
    c.throwIfAny();
  }

  /** A pair with fan-out 1. */
  public static CausalPair of(String incoming, String target, String outgoing) {
    return new CausalPair(OperationPattern.of(incoming), OperationPattern.of(target), OperationPattern.of(outgoing), DEFAULT_FANOUT);
  }
}
