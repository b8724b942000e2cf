package org.irmi.sla;

import java.time.Duration;
import java.util.Objects;
import org.irmi.sla.internal.Check;

/**
 * Module {@code defer}: the call is held in a bounded queue and resubmitted later.
 *
 * @param capacity queue capacity in calls (1 to 1000000, default 1000)
 * @param retryDelay delay before a deferred call is resubmitted (1ms to 1h, default 100ms)
 * @param maxRetries resubmissions before the call is rejected (0 to 1000, default 3)
 * @param whenFull what happens to a call that finds the queue full (default {@code reject})
 */
public record DeferConfig(int capacity, Duration retryDelay, int maxRetries, WhenFull whenFull) implements ModuleConfig {

  /** Behaviour when the queue is full. YAML values: {@code reject}, {@code drop-oldest}, {@code short-circuit}. */
  public enum WhenFull {
    /** The new call is rejected with TRANSIENT. */
    REJECT("reject"),
    /** The oldest deferred call is rejected and the new one queued. */
    DROP_OLDEST("drop-oldest"),
    /** The new call is completed locally with the type's default result. */
    SHORT_CIRCUIT("short-circuit");

    private final String yaml;

    WhenFull(String yaml) {
      this.yaml = yaml;
    }

    /** The YAML spelling. */
    public String yaml() {
      return yaml;
    }
  }

  public static final int DEFAULT_CAPACITY = 1000;
  public static final Duration DEFAULT_RETRY_DELAY = Duration.ofMillis(100);
  public static final int DEFAULT_MAX_RETRIES = 3;
  public static final WhenFull DEFAULT_WHEN_FULL = WhenFull.REJECT;

  /** Validates every field. */
  public DeferConfig {
    Objects.requireNonNull(whenFull, "whenFull");
    Check c = new Check();
    c.range("capacity", capacity, 1, 1_000_000);
    c.duration("retryDelay", retryDelay, Duration.ofMillis(1), Duration.ofHours(1));
    c.range("maxRetries", maxRetries, 0, 1000);
    c.throwIfAny();
  }

  /** All defaults. */
  public static DeferConfig ofDefaults() {
    return new DeferConfig(DEFAULT_CAPACITY, DEFAULT_RETRY_DELAY, DEFAULT_MAX_RETRIES, DEFAULT_WHEN_FULL);
  }

  @Override
  public String name() {
    return DEFER;
  }
}
