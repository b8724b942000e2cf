package org.irmi.sla;

import java.util.List;
import java.util.stream.Collectors;

/**
 * An SLA file (or an SLA parameter read by a third-party module) is invalid. Holds every error found,
 * in file order; the message lists them one per line in {@code file:line:col: message} form.
 */
public final class SlaException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient List<SlaError> errors;

  /** Creates the exception; {@code errors} must not be empty. */
  public SlaException(List<SlaError> errors) {
    super(errors.stream().map(SlaError::toString).collect(Collectors.joining("\n")));
    if (errors.isEmpty()) {
      throw new IllegalArgumentException("an SlaException needs at least one error");
    }
    this.errors = List.copyOf(errors);
  }

  /** Every error, in file order. */
  public List<SlaError> errors() {
    return errors;
  }
}
