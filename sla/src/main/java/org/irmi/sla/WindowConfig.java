package org.irmi.sla;

import java.time.Duration;
import org.irmi.sla.internal.Check;

/**
 * A sliding window: {@code length} split into {@code buckets} equal time buckets.
 * YAML: {@code {length: 10s, buckets: 10}}. The one window shape of I-RMI: the SLA's windows and the
 * monitors' sliding windows both use it.
 *
 * <p>The window covers the current bucket plus the {@code buckets - 1} closed buckets before it. Finer
 * buckets make the window slide more smoothly and cost O(buckets) memory and O(buckets) for min/max
 * snapshots; counts, sums and rates stay O(1).
 *
 * @param length the window length, 1ms to 24h
 * @param buckets the number of buckets, 1 to 3600; each bucket must span at least 1ms
 */
public record WindowConfig(Duration length, int buckets) {

  /** Smallest window length. */
  public static final Duration MIN_LENGTH = Duration.ofMillis(1);
  /** Largest window length. */
  public static final Duration MAX_LENGTH = Duration.ofHours(24);
  /** Largest bucket count. */
  public static final int MAX_BUCKETS = 3600;
  /** Default window length, when no SLA names one: 10 seconds. */
  public static final Duration DEFAULT_LENGTH = Duration.ofSeconds(10);
  /** Default number of buckets: 10 (one per second with the default length). */
  public static final int DEFAULT_BUCKETS = 10;

  private static final WindowConfig DEFAULTS = new WindowConfig(DEFAULT_LENGTH, DEFAULT_BUCKETS);

  /** Validates every field. */
  public WindowConfig {
    Check c = new Check();
    c.duration("length", length, MIN_LENGTH, MAX_LENGTH);
    c.range("buckets", buckets, 1, MAX_BUCKETS);
    if (length != null && buckets >= 1 && length.toNanos() / buckets < 1_000_000L) {
      c.fail("buckets", buckets + " buckets over " + org.irmi.sla.internal.Units.formatDuration(length)
          + " are shorter than 1ms each; use at most " + Math.max(1, length.toMillis()) + " buckets");
    }
    c.throwIfAny();
  }

  /** A window of {@code length} in {@code buckets} buckets. */
  public static WindowConfig of(Duration length, int buckets) {
    return new WindowConfig(length, buckets);
  }

  /** 10 s in 10 buckets. */
  public static WindowConfig ofDefaults() {
    return DEFAULTS;
  }

  /** The length of one bucket. */
  public Duration bucketLength() {
    return length.dividedBy(buckets);
  }

  /** The length of one bucket, nanoseconds. */
  public long bucketNanos() {
    return length.toNanos() / buckets;
  }

  /** The window length in nanoseconds, a whole number of buckets. */
  public long windowNanos() {
    return bucketNanos() * buckets;
  }
}
