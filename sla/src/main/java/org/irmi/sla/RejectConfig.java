package org.irmi.sla;

import java.util.Objects;
import java.util.OptionalInt;
import org.irmi.sla.internal.Check;

/**
 * Module {@code reject}: the call fails with a CORBA system exception.
 *
 * @param kind {@code TRANSIENT} (try again, maybe elsewhere) or {@code NO_RESOURCES}
 * @param minorCode the exception's minor code (0 to 0xFFFFFFFF, written decimal or {@code 0x...});
 *     empty means the module's documented default
 * @param reason a short reason for logs and decision events (1 to 500 characters)
 */
public record RejectConfig(SystemExceptionKind kind, OptionalInt minorCode, String reason) implements ModuleConfig {

  public static final SystemExceptionKind DEFAULT_KIND = SystemExceptionKind.TRANSIENT;
  public static final String DEFAULT_REASON = "rejected by an I-RMI isolation point";

  /** Validates every field. */
  public RejectConfig {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(minorCode, "minorCode");
    Check c = new Check();
    c.notBlank("reason", reason);
    if (reason != null && reason.length() > 500) {
      c.fail("reason", "must be at most 500 characters, was " + reason.length());
    }
    c.throwIfAny();
  }

  /** TRANSIENT, default minor code, default reason. */
  public static RejectConfig ofDefaults() {
    return new RejectConfig(DEFAULT_KIND, OptionalInt.empty(), DEFAULT_REASON);
  }

  @Override
  public String name() {
    return REJECT;
  }
}
