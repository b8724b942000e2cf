package org.irmi.sla;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Thrown by the config objects' constructors and builders when a value is out of range or two values
 * contradict each other. Each violation names the SLA key (relative to the config object, e.g.
 * {@code throughputDrop} or {@code receiveBuffer.max}) and the bound, so the SLA loader can turn it
 * into a {@code file:line:col} error at that key.
 */
public final class SlaConfigException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  /** One violated constraint. {@code key} is the SLA key relative to the config object. */
  public record Violation(String key, String message) {
    @Override
    public String toString() {
      return key + ": " + message;
    }
  }

  private final transient List<Violation> violations;

  /** Creates the exception; {@code violations} must not be empty. */
  public SlaConfigException(List<Violation> violations) {
    super(violations.stream().map(Violation::toString).collect(Collectors.joining("; ")));
    this.violations = List.copyOf(violations);
  }

  /** The violations, in the order they were found. */
  public List<Violation> violations() {
    return violations;
  }
}
