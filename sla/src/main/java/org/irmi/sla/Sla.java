package org.irmi.sla;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.irmi.sla.internal.Check;
import org.irmi.sla.internal.SlaBinder;
import org.irmi.sla.internal.SlaRenderer;

/**
 * One service's SLA: objectives, monitors and isolation points, loaded from a YAML file. Immutable
 * and thread-safe; hot reload swaps whole {@code Sla} objects (see {@link SlaWatcher}).
 *
 * <pre>{@code
 * Sla sla = Sla.load(Path.of("orders.yaml"));          // throws SlaException with every error
 * sla.isolationPoints().poison().ifPresent(p -> ...);
 * }</pre>
 *
 * @param service the service name (letters, digits, {@code _ - .}; required)
 * @param objectives the service objectives, in file order
 * @param monitors the monitors' windows and causal pairs
 * @param isolationPoints the isolation points
 */
public record Sla(
    String service, List<ServiceObjective> objectives, MonitorsConfig monitors, IsolationPointsConfig isolationPoints) {

  /** Validates. */
  public Sla {
    objectives = List.copyOf(objectives);
    Objects.requireNonNull(monitors, "monitors");
    Objects.requireNonNull(isolationPoints, "isolationPoints");
    Check c = new Check();
    c.notBlank("service", service);
    if (service != null && !service.isBlank() && !service.matches("[A-Za-z0-9_.-]{1,128}")) {
      c.fail("service", "'" + service + "' must be 1 to 128 letters, digits, '_', '-' or '.'");
    }
    c.throwIfAny();
  }

  /**
   * Loads and validates an SLA file. Errors name the file by its file name.
   *
   * @throws SlaException with every error of the file (also when it cannot be read)
   */
  public static Sla load(Path file) {
    String name = file.getFileName() == null ? file.toString() : file.getFileName().toString();
    String text;
    try {
      text = new String(org.irmi.sla.internal.SlaFileText.read(file), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new SlaException(List.of(new SlaError(name, 1, 1, "", "file not found: " + file)));
    } catch (IOException e) {
      throw new SlaException(List.of(new SlaError(name, 1, 1, "", "cannot read " + file + ": " + e.getMessage())));
    }
    return parse(text, name);
  }

  /**
   * Parses and validates SLA YAML text.
   *
   * @param sourceName the name used in error positions, e.g. {@code orders.yaml}
   * @throws SlaException with every error found
   */
  public static Sla parse(String yaml, String sourceName) {
    return SlaBinder.bind(yaml, sourceName);
  }

  /** Renders this SLA as YAML that {@link #parse(String, String)} reads back into an equal {@code Sla}. */
  public String toYaml() {
    return SlaRenderer.render(this);
  }
}
