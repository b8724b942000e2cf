package org.irmi.sla.internal;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and formats the explicit units of SLA values.
 *
 * <ul>
 *   <li>durations: {@code 500ns}, {@code 250us}, {@code 250ms}, {@code 5s}, {@code 2m}, {@code 1h}
 *       (integer amounts);</li>
 *   <li>sizes: {@code 512B}, {@code 64KiB}, {@code 8MiB}, {@code 1GiB} (binary multiples, integer amounts);</li>
 *   <li>percentages: {@code 80%}, {@code 12.5%};</li>
 *   <li>rates: {@code 100/s}, {@code 6000/m}, {@code 36000/h}, {@code 0.5/s}, stored per second.</li>
 * </ul>
 *
 * <p>Every parse method throws {@link IllegalArgumentException} with a message meant for the operator
 * (it says what was expected and gives an example); callers add the file position and key path.
 * A bare number where a unit is required is refused with a message naming the units to choose from.
 */
public final class Units {

  private static final Pattern NUMBER_UNIT = Pattern.compile("([+-]?[0-9]+(?:\\.[0-9]+)?)\\s*([A-Za-z%/]*[A-Za-z%]?)");
  private static final Pattern BARE_NUMBER = Pattern.compile("[+-]?[0-9]+(?:\\.[0-9]+)?");

  private Units() {}

  /** Parses a duration such as {@code 250ms}; the amount must be a non-negative integer. */
  public static Duration parseDuration(String text) {
    String s = text.trim();
    if (BARE_NUMBER.matcher(s).matches()) {
      throw new IllegalArgumentException(
          "'" + s + "' has no unit; write a duration such as " + s + "ms or " + s + "s (units: ns, us, ms, s, m, h)");
    }
    Matcher m = NUMBER_UNIT.matcher(s);
    if (!m.matches()) {
      throw new IllegalArgumentException("expected a duration such as 250ms, 5s or 2m, got '" + s + "'");
    }
    String amount = m.group(1);
    String unit = m.group(2);
    if (amount.contains(".")) {
      throw new IllegalArgumentException("'" + s + "': write durations as whole numbers in a smaller unit (e.g. 1500ms, not 1.5s)");
    }
    long n = parseLongOrThrow(amount, s);
    if (n < 0) {
      throw new IllegalArgumentException("'" + s + "': a duration cannot be negative");
    }
    try {
      return switch (unit) {
        case "ns" -> Duration.ofNanos(n);
        case "us" -> Duration.ofNanos(Math.multiplyExact(n, 1_000L));
        case "ms" -> Duration.ofMillis(n);
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        default -> throw new IllegalArgumentException(
            "unknown duration unit '" + unit + "' in '" + s + "'; use ns, us, ms, s, m or h");
      };
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("'" + s + "' is too large for a duration");
    }
  }

  /** Formats a duration in the largest unit that represents it exactly. */
  public static String formatDuration(Duration d) {
    long nanos;
    try {
      nanos = d.toNanos();
    } catch (ArithmeticException e) {
      return d.toHours() + "h";
    }
    long[] factors = {3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L, 1L};
    String[] names = {"h", "m", "s", "ms", "us", "ns"};
    for (int i = 0; i < factors.length; i++) {
      if (nanos % factors[i] == 0 && (nanos != 0 || i == 3)) {
        return (nanos / factors[i]) + names[i];
      }
    }
    return nanos + "ns";
  }

  /** Parses a size such as {@code 64KiB} into bytes; the amount must be a non-negative integer. */
  public static long parseBytes(String text) {
    String s = text.trim();
    if (BARE_NUMBER.matcher(s).matches()) {
      throw new IllegalArgumentException(
          "'" + s + "' has no unit; write a size such as " + s + "B or " + s + "KiB (units: B, KiB, MiB, GiB)");
    }
    Matcher m = NUMBER_UNIT.matcher(s);
    if (!m.matches()) {
      throw new IllegalArgumentException("expected a size such as 512B, 64KiB or 8MiB, got '" + s + "'");
    }
    String amount = m.group(1);
    String unit = m.group(2);
    if (amount.contains(".")) {
      throw new IllegalArgumentException("'" + s + "': write sizes as whole numbers in a smaller unit (e.g. 1536KiB, not 1.5MiB)");
    }
    long n = parseLongOrThrow(amount, s);
    if (n < 0) {
      throw new IllegalArgumentException("'" + s + "': a size cannot be negative");
    }
    long factor = switch (unit) {
      case "B" -> 1L;
      case "KiB" -> 1L << 10;
      case "MiB" -> 1L << 20;
      case "GiB" -> 1L << 30;
      case "KB", "kB", "K", "k", "KiB/s" -> throw new IllegalArgumentException(
          "unknown size unit '" + unit + "' in '" + s + "'; sizes are binary, write " + n + "KiB");
      case "MB", "M" -> throw new IllegalArgumentException(
          "unknown size unit '" + unit + "' in '" + s + "'; sizes are binary, write " + n + "MiB");
      case "GB", "G" -> throw new IllegalArgumentException(
          "unknown size unit '" + unit + "' in '" + s + "'; sizes are binary, write " + n + "GiB");
      default -> throw new IllegalArgumentException(
          "unknown size unit '" + unit + "' in '" + s + "'; use B, KiB, MiB or GiB");
    };
    try {
      return Math.multiplyExact(n, factor);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("'" + s + "' is too large for a size");
    }
  }

  /** Formats a byte count in the largest binary unit that represents it exactly. */
  public static String formatBytes(long bytes) {
    if (bytes != 0) {
      if (bytes % (1L << 30) == 0) {
        return (bytes >> 30) + "GiB";
      }
      if (bytes % (1L << 20) == 0) {
        return (bytes >> 20) + "MiB";
      }
      if (bytes % (1L << 10) == 0) {
        return (bytes >> 10) + "KiB";
      }
    }
    return bytes + "B";
  }

  /** Parses a percentage such as {@code 80%} or {@code 12.5%} into its number (80.0, 12.5). */
  public static double parsePercent(String text) {
    String s = text.trim();
    if (BARE_NUMBER.matcher(s).matches()) {
      throw new IllegalArgumentException("'" + s + "' has no unit; write a percentage such as " + s + "%");
    }
    if (!s.endsWith("%") || !BARE_NUMBER.matcher(s.substring(0, s.length() - 1).trim()).matches()) {
      throw new IllegalArgumentException("expected a percentage such as 80% or 12.5%, got '" + s + "'");
    }
    return Double.parseDouble(s.substring(0, s.length() - 1).trim());
  }

  /** Formats a percentage without needless decimals. */
  public static String formatPercent(double percent) {
    return formatNumber(percent) + "%";
  }

  /** Parses a rate such as {@code 100/s}, {@code 6000/m} or {@code 36000/h} into events per second. */
  public static double parsePerSecond(String text) {
    String s = text.trim();
    if (BARE_NUMBER.matcher(s).matches()) {
      throw new IllegalArgumentException("'" + s + "' has no unit; write a rate such as " + s + "/s or " + s + "/m");
    }
    int slash = s.indexOf('/');
    if (slash < 0 || !BARE_NUMBER.matcher(s.substring(0, slash).trim()).matches()) {
      throw new IllegalArgumentException("expected a rate such as 100/s or 6000/m, got '" + s + "'");
    }
    double amount = Double.parseDouble(s.substring(0, slash).trim());
    String unit = s.substring(slash + 1).trim();
    return switch (unit) {
      case "s" -> amount;
      case "m" -> amount / 60.0;
      case "h" -> amount / 3600.0;
      default -> throw new IllegalArgumentException("unknown rate unit '/" + unit + "' in '" + s + "'; use /s, /m or /h");
    };
  }

  /** Formats a rate per second. */
  public static String formatPerSecond(double perSecond) {
    return formatNumber(perSecond) + "/s";
  }

  /** Formats a number without needless decimals ({@code 4}, {@code 0.25}). */
  public static String formatNumber(double value) {
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return Long.toString((long) value);
    }
    return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }

  private static long parseLongOrThrow(String amount, String whole) {
    try {
      return Long.parseLong(amount);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + whole + "' is too large");
    }
  }
}
