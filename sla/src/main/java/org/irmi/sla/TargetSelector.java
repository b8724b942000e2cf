package org.irmi.sla;

import java.util.List;
import java.util.Objects;
import org.irmi.sla.internal.Check;

/**
 * Which outgoing calls the slow-client point guards: a target glob and operation globs.
 * YAML: {@code {target: "Secondary*", operations: ["forward", "push*"]}}.
 *
 * @param target glob over target names (as the isolation point names targets)
 * @param operations globs over outgoing operations (default {@code ["*"]}); not empty
 */
public record TargetSelector(OperationPattern target, List<OperationPattern> operations) {

  /** Every call to every target. */
  public static final TargetSelector ALL = new TargetSelector(OperationPattern.ANY, List.of(OperationPattern.ANY));

  /** Validates. */
  public TargetSelector {
    Objects.requireNonNull(target, "target");
    operations = List.copyOf(operations);
    Check c = new Check();
    if (operations.isEmpty()) {
      c.fail("operations", "must list at least one operation or glob (use '*' for all)");
    }
    c.throwIfAny();
  }

  /** Whether an outgoing call of {@code operation} to {@code targetName} is selected. */
  public boolean matches(String targetName, String operation) {
    if (!target.matches(targetName)) {
      return false;
    }
    for (OperationPattern p : operations) {
      if (p.matches(operation)) {
        return true;
      }
    }
    return false;
  }
}
