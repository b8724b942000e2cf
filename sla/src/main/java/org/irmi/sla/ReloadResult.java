package org.irmi.sla;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of one {@link SlaWatcher#poll()}.
 *
 * @param outcome what happened
 * @param inForce the SLA in force after the poll
 * @param errors why a changed file was refused (empty unless {@code REJECTED})
 */
public record ReloadResult(Outcome outcome, Sla inForce, List<SlaError> errors) {

  /** What a poll did. */
  public enum Outcome {
    /** The file's content is the same as at the last poll. */
    UNCHANGED,
    /** A changed, valid file is now in force. */
    APPLIED,
    /** A changed file was invalid (or unreadable); the old SLA stays in force. */
    REJECTED
  }

  /** Null-checks and copies. */
  public ReloadResult {
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(inForce, "inForce");
    errors = List.copyOf(errors);
  }
}
