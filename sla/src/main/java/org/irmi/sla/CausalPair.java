package org.irmi.sla;

import java.util.Objects;
import org.irmi.sla.internal.Check;

/**
 * A causal pair (the paper's causally connected APIs; the SLA names them): each incoming call of an
 * operation matching {@code incoming} causes {@code fanOut} outgoing calls of an operation matching
 * {@code outgoing} on a target matching {@code target}. The slow-client point keeps one rate window
 * per pair; {@code in * fanOut - out} estimates the growth of the queue between them.
 *
 * <p>This is I-RMI's one causal-pair type: the SLA loader builds it, the isolation points match
 * calls against it, and the monitors window the rates of each pair by its {@link #name}.
 *
 * @param name the pair's name, for logs, events, metric tags and queue gauges; an SLA pair is named
 *     {@link #nameOf nameOf(incoming, target, outgoing)}, e.g. {@code publish->*.deliver}
 * @param incoming glob over this service's incoming operations
 * @param target glob over outgoing call targets (the names the isolation point gives a target: its
 *     host, {@code host:port} or object key)
 * @param outgoing glob over the outgoing operations
 * @param fanOut outgoing calls per incoming call, greater than 0 and at most 10000 (default 1); the
 *     SLA key is {@code fanout}
 */
public record CausalPair(String name, OperationPattern incoming, OperationPattern target, OperationPattern outgoing,
    double fanOut) {

  /** Default outgoing calls per incoming call. */
  public static final double DEFAULT_FANOUT = 1.0;

  /** Validates every field. */
  public CausalPair {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(incoming, "incoming");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(outgoing, "outgoing");
    if (name.isBlank()) {
      throw new IllegalArgumentException("causal pair name must not be blank");
    }
    Check c = new Check();
    c.rangeExclusiveMin("fanout", fanOut, 0, 10_000);
    c.throwIfAny();
  }

  /** A pair named {@link #nameOf nameOf(incoming, target, outgoing)}, as the SLA names its pairs. */
  public CausalPair(OperationPattern incoming, OperationPattern target, OperationPattern outgoing, double fanOut) {
    this(nameOf(incoming, target, outgoing), incoming, target, outgoing, fanOut);
  }

  /** A pair with fan-out 1, named as the SLA names its pairs. */
  public static CausalPair of(String incoming, String target, String outgoing) {
    return new CausalPair(OperationPattern.of(incoming), OperationPattern.of(target), OperationPattern.of(outgoing),
        DEFAULT_FANOUT);
  }

  /** A named pair of two operation globs, any target, fan-out 1. */
  public static CausalPair named(String name, String incoming, String outgoing) {
    return new CausalPair(name, OperationPattern.of(incoming), OperationPattern.ANY, OperationPattern.of(outgoing),
        DEFAULT_FANOUT);
  }

  /** The name the SLA gives a pair: {@code incoming->target.outgoing} (globs as written). */
  public static String nameOf(OperationPattern incoming, OperationPattern target, OperationPattern outgoing) {
    return incoming.glob() + "->" + target.glob() + "." + outgoing.glob();
  }
}
