package org.irmi.sla;

import java.util.Objects;
import org.irmi.sla.internal.Check;

/**
 * A third-party adaptation module, found later by name through {@code ServiceLoader}. Its name must
 * be namespaced (contain a {@code .}, e.g. {@code com.acme.hedge}) so that it can never be confused
 * with a misspelt built-in. Its parameters are passed through raw, with their file positions.
 *
 * @param name the module name as written
 * @param params every key of the action map except {@code module} and {@code fallback}
 */
public record CustomModuleConfig(String name, SlaParams params) implements ModuleConfig {

  /** Validates the name. */
  public CustomModuleConfig {
    Objects.requireNonNull(params, "params");
    Check c = new Check();
    c.notBlank("module", name);
    if (name != null && !name.isBlank() && !name.matches("[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)+")) {
      c.fail("module", "third-party module name '" + name + "' must be namespaced, e.g. com.acme." + name);
    }
    c.throwIfAny();
  }
}
