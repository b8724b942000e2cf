package org.irmi.sla.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.irmi.sla.SlaConfigException;

/**
 * Collects the violations of one config object's constructor, so that all of them are reported at
 * once. Keys are SLA keys (what the operator wrote), messages name the bound.
 *
 * <pre>{@code
 * Check c = new Check();
 * c.percent("throughputDrop", throughputDropPercent, 1, 100);
 * c.throwIfAny();
 * }</pre>
 */
public final class Check {

  private final List<SlaConfigException.Violation> violations = new ArrayList<>();

  /** Records a violation. */
  public void fail(String key, String message) {
    violations.add(new SlaConfigException.Violation(key, message));
  }

  /** Requires {@code value} to be non-null. */
  public void notNull(String key, Object value) {
    if (value == null) {
      fail(key, "is required");
    }
  }

  /** Requires a non-blank string. */
  public void notBlank(String key, String value) {
    if (value == null || value.isBlank()) {
      fail(key, "must not be empty");
    }
  }

  /** Requires {@code min <= value <= max}. */
  public void range(String key, long value, long min, long max) {
    if (value < min) {
      fail(key, "must be at least " + min + ", was " + value);
    } else if (value > max) {
      fail(key, "must be at most " + max + ", was " + value);
    }
  }

  /** Requires {@code min <= value <= max} for a plain number. */
  public void range(String key, double value, double min, double max) {
    if (Double.isNaN(value) || value < min) {
      fail(key, "must be at least " + Units.formatNumber(min) + ", was " + Units.formatNumber(value));
    } else if (value > max) {
      fail(key, "must be at most " + Units.formatNumber(max) + ", was " + Units.formatNumber(value));
    }
  }

  /** Requires {@code min < value <= max} for a plain number. */
  public void rangeExclusiveMin(String key, double value, double min, double max) {
    if (Double.isNaN(value) || value <= min) {
      fail(key, "must be greater than " + Units.formatNumber(min) + ", was " + Units.formatNumber(value));
    } else if (value > max) {
      fail(key, "must be at most " + Units.formatNumber(max) + ", was " + Units.formatNumber(value));
    }
  }

  /** Requires a percentage in {@code [min, max]}. */
  public void percent(String key, double percent, double min, double max) {
    if (Double.isNaN(percent) || percent < min) {
      fail(key, "must be at least " + Units.formatPercent(min) + ", was " + Units.formatPercent(percent));
    } else if (percent > max) {
      fail(key, "must be at most " + Units.formatPercent(max) + ", was " + Units.formatPercent(percent));
    }
  }

  /** Requires a rate (per second) in {@code (minExclusive, max]}. */
  public void rate(String key, double perSecond, double minExclusive, double max) {
    if (Double.isNaN(perSecond) || perSecond <= minExclusive) {
      fail(key, "must be more than " + Units.formatPerSecond(minExclusive) + ", was " + Units.formatPerSecond(perSecond));
    } else if (perSecond > max) {
      fail(key, "must be at most " + Units.formatPerSecond(max) + ", was " + Units.formatPerSecond(perSecond));
    }
  }

  /** Requires a duration in {@code [min, max]}. */
  public void duration(String key, Duration value, Duration min, Duration max) {
    if (value == null) {
      fail(key, "is required");
    } else if (value.compareTo(min) < 0) {
      fail(key, "must be at least " + Units.formatDuration(min) + ", was " + Units.formatDuration(value));
    } else if (value.compareTo(max) > 0) {
      fail(key, "must be at most " + Units.formatDuration(max) + ", was " + Units.formatDuration(value));
    }
  }

  /** Requires a size in {@code [min, max]} bytes. */
  public void bytes(String key, long bytes, long min, long max) {
    if (bytes < min) {
      fail(key, "must be at least " + Units.formatBytes(min) + ", was " + Units.formatBytes(bytes));
    } else if (bytes > max) {
      fail(key, "must be at most " + Units.formatBytes(max) + ", was " + Units.formatBytes(bytes));
    }
  }

  /** Requires a size of at least another key's size: {@code key} must be at least {@code lowKey}. */
  public void bytesAtLeast(String key, long bytes, String lowKey, long low) {
    if (bytes < low) {
      fail(key, "must be at least " + lowKey + " (" + Units.formatBytes(low) + "), was " + Units.formatBytes(bytes));
    }
  }

  /** Requires a duration of at least another key's duration; null values are reported elsewhere. */
  public void durationAtLeast(String key, Duration value, String lowKey, Duration low) {
    if (value != null && low != null && value.compareTo(low) < 0) {
      fail(key, "must be at least " + lowKey + " (" + Units.formatDuration(low) + "), was " + Units.formatDuration(value));
    }
  }

  /** Throws {@link SlaConfigException} if any violation was recorded. */
  public void throwIfAny() {
    if (!violations.isEmpty()) {
      throw new SlaConfigException(violations);
    }
  }
}
