package org.irmi.sla;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.irmi.sla.internal.Suggest;

/**
 * The raw parameters of a third-party adaptation module (everything in its {@code action} map but
 * {@code module} and {@code fallback}), in file order, each with its position. A module validates
 * them with {@link #allowOnly(String...)}, {@link #require(String)} and the {@code as...} methods of
 * {@link SlaParam}, all of which throw {@link SlaException} naming {@code file:line:col}.
 *
 * <p>Immutable and thread-safe. Equality ignores positions.
 */
public final class SlaParams {

  private final String source;
  private final int line;
  private final int column;
  private final String path;
  private final Map<String, SlaParam> values;

  /** Creates the map (used by the SLA loader); the position is that of the map itself. */
  public SlaParams(String source, int line, int column, String path, Map<String, SlaParam> values) {
    this.source = Objects.requireNonNull(source, "source");
    this.line = line;
    this.column = column;
    this.path = Objects.requireNonNull(path, "path");
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** No parameters, positioned nowhere (for configs built in code). */
  public static SlaParams empty() {
    return new SlaParams("<code>", 1, 1, "", Map.of());
  }

  /** The keys in file order. */
  public Set<String> keys() {
    return values.keySet();
  }

  /** The value of {@code key}, if written. */
  public Optional<SlaParam> get(String key) {
    return Optional.ofNullable(values.get(key));
  }

  /** The value of {@code key}; throws {@link SlaException} at this map's position if it is missing. */
  public SlaParam require(String key) {
    SlaParam p = values.get(key);
    if (p == null) {
      throw error("missing required key '" + key + "' in " + path);
    }
    return p;
  }

  /**
   * Throws {@link SlaException} listing every key not in {@code allowed}, each at its own position
   * and with a suggestion when it looks like a misspelling.
   */
  public void allowOnly(String... allowed) {
    Set<String> ok = new LinkedHashSet<>(Arrays.asList(allowed));
    List<SlaError> errors = new ArrayList<>();
    for (Map.Entry<String, SlaParam> e : values.entrySet()) {
      if (!ok.contains(e.getKey())) {
        SlaParam p = e.getValue();
        String hint = Suggest.closest(e.getKey(), ok).map(s -> " (did you mean '" + s + "'?)").orElse("");
        errors.add(new SlaError(p.source(), p.keyLine(), p.keyColumn(), p.path(),
            "unknown key '" + e.getKey() + "' in " + path + hint));
      }
    }
    if (!errors.isEmpty()) {
      throw new SlaException(errors);
    }
  }

  /** An {@link SlaException} at this map's position. */
  public SlaException error(String message) {
    return new SlaException(List.of(new SlaError(source, line, column, path, message)));
  }

  /** Dotted key path of this map. */
  public String path() { return path; }

  /** File name. */
  public String source() { return source; }

  /** 1-based line of the map. */
  public int line() { return line; }

  /** 1-based column of the map. */
  public int column() { return column; }

  /** The parameters as plain Java data ({@code String}, {@code List}, {@code Map}), in file order. */
  public Map<String, Object> toPlain() {
    Map<String, Object> out = new LinkedHashMap<>();
    values.forEach((k, v) -> out.put(k, v.toPlain()));
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SlaParams p && p.values.equals(values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }

  @Override
  public String toString() {
    return String.valueOf(toPlain());
  }
}
