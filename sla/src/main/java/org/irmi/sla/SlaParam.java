package org.irmi.sla;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.irmi.sla.internal.Units;

/**
 * One raw value of a third-party module's parameters, with the file position it came from, so a
 * module that rejects it can still name {@code file:line:col} and the key path. A value is a scalar
 * (text), a list of values, or a map ({@link SlaParams}).
 *
 * <p>The {@code as...} methods convert with the SLA's unit rules and throw {@link SlaException}
 * naming this value's position when the value does not fit. Equality ignores positions.
 *
 * <p>Immutable and thread-safe.
 */
public final class SlaParam {

  private final String source;
  private final int line;
  private final int column;
  private final String path;
  private final Object value;
  private final int keyLine;
  private final int keyColumn;

  /**
   * Creates a value (used by the SLA loader); the key position is taken to be the value's.
   *
   * @param value a {@link String}, a {@code List<SlaParam>} or an {@link SlaParams}
   */
  public SlaParam(String source, int line, int column, String path, Object value) {
    this(source, line, column, line, column, path, value);
  }

  /**
   * Creates a value whose key sits at {@code keyLine:keyColumn} (used by the SLA loader).
   *
   * @param value a {@link String}, a {@code List<SlaParam>} or an {@link SlaParams}
   */
  public SlaParam(String source, int keyLine, int keyColumn, int line, int column, String path, Object value) {
    this.keyLine = keyLine;
    this.keyColumn = keyColumn;
    this.source = Objects.requireNonNull(source, "source");
    this.line = line;
    this.column = column;
    this.path = Objects.requireNonNull(path, "path");
    if (!(value instanceof String || value instanceof List<?> || value instanceof SlaParams)) {
      throw new IllegalArgumentException("value must be a String, a List<SlaParam> or SlaParams");
    }
    this.value = value instanceof List<?> l ? List.copyOf(l) : value;
  }

  /** File name. */
  public String source() { return source; }

  /** 1-based line. */
  public int line() { return line; }

  /** 1-based column. */
  public int column() { return column; }

  /** 1-based line of this value's key (of the value itself for list items). */
  public int keyLine() { return keyLine; }

  /** 1-based column of this value's key (of the value itself for list items). */
  public int keyColumn() { return keyColumn; }

  /** Dotted key path from the SLA root. */
  public String path() { return path; }

  /** Whether this is a scalar. */
  public boolean isScalar() { return value instanceof String; }

  /** An {@link SlaException} at this value's position; {@code message} should say what to write. */
  public SlaException error(String message) {
    return new SlaException(List.of(new SlaError(source, line, column, path, path + ": " + message)));
  }

  /** The scalar text. */
  public String asString() {
    if (value instanceof String s) {
      return s;
    }
    throw error("expected a single value, got a " + (value instanceof List<?> ? "list" : "map"));
  }

  /** A whole number (decimal, or hex with {@code 0x}). */
  public long asLong() {
    return convert("a whole number", s -> s.startsWith("0x") || s.startsWith("0X")
        ? Long.parseLong(s.substring(2), 16) : Long.parseLong(s));
  }

  /** A plain number. */
  public double asDouble() {
    return convert("a number", s -> {
      double d = Double.parseDouble(s);
      if (Double.isNaN(d) || Double.isInfinite(d) || s.chars().anyMatch(Character::isLetter)) {
        throw new IllegalArgumentException("not a finite number");
      }
      return d;
    });
  }

  /** {@code true} or {@code false}. */
  public boolean asBoolean() {
    return convert("true or false", s -> switch (s) {
      case "true" -> Boolean.TRUE;
      case "false" -> Boolean.FALSE;
      default -> throw new IllegalArgumentException();
    });
  }

  /** A duration with a unit ({@code 250ms}). */
  public Duration asDuration() { return convertUnits(Units::parseDuration); }

  /** A size in bytes with a unit ({@code 64KiB}). */
  public long asBytes() { return convertUnits(Units::parseBytes); }

  /** A percentage ({@code 80%}), returned as its number (80.0). */
  public double asPercent() { return convertUnits(Units::parsePercent); }

  /** A rate ({@code 100/s}), returned per second. */
  public double asPerSecond() { return convertUnits(Units::parsePerSecond); }

  /** A list of values. */
  @SuppressWarnings("unchecked")
  public List<SlaParam> asList() {
    if (value instanceof List<?> l) {
      return (List<SlaParam>) l;
    }
    throw error("expected a list");
  }

  /** A map of values. */
  public SlaParams asParams() {
    if (value instanceof SlaParams p) {
      return p;
    }
    throw error("expected a map of keys");
  }

  /** The value as plain Java data: {@code String}, {@code List<Object>} or {@code Map<String, Object>}. */
  public Object toPlain() {
    if (value instanceof SlaParams p) {
      return p.toPlain();
    }
    if (value instanceof List<?> l) {
      List<Object> out = new ArrayList<>();
      for (Object o : l) {
        out.add(((SlaParam) o).toPlain());
      }
      return out;
    }
    return value;
  }

  private <T> T convert(String expected, Function<String, T> f) {
    String s = asString().trim();
    try {
      return f.apply(s);
    } catch (RuntimeException e) {
      throw error("expected " + expected + ", got '" + s + "'");
    }
  }

  private <T> T convertUnits(Function<String, T> f) {
    String s = asString();
    try {
      return f.apply(s);
    } catch (IllegalArgumentException e) {
      throw error(e.getMessage());
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SlaParam p && p.value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  @Override
  public String toString() {
    return String.valueOf(toPlain());
  }
}
