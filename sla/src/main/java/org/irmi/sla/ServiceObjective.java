package org.irmi.sla;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import org.irmi.sla.internal.Check;

/**
 * A service-level objective for the operations matching a glob. At least one of the three targets
 * must be set. YAML: one entry of {@code objectives}.
 *
 * @param operation glob over this service's operations
 * @param p99Latency the 99th-percentile latency must stay at or below this (1us to 1h)
 * @param minThroughputPerSecond throughput must stay at or above this many calls per second
 * @param maxErrorRatePercent the share of failed calls must stay at or below this (0% to 100%)
 */
public record ServiceObjective(
    OperationPattern operation,
    Optional<Duration> p99Latency,
    OptionalDouble minThroughputPerSecond,
    OptionalDouble maxErrorRatePercent) {

  /** Validates every field. */
  public ServiceObjective {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(p99Latency, "p99Latency");
    Objects.requireNonNull(minThroughputPerSecond, "minThroughput");
    Objects.requireNonNull(maxErrorRatePercent, "maxErrorRate");
    Check c = new Check();
    p99Latency.ifPresent(d -> c.duration("p99Latency", d, Duration.ofNanos(1000), Duration.ofHours(1)));
    minThroughputPerSecond.ifPresent(r -> c.rate("minThroughput", r, 0, 1e9));
    maxErrorRatePercent.ifPresent(p -> c.percent("maxErrorRate", p, 0, 100));
    if (p99Latency.isEmpty() && minThroughputPerSecond.isEmpty() && maxErrorRatePercent.isEmpty()) {
      c.fail("operation", "objective for '" + operation + "' sets no target; give p99Latency, minThroughput or maxErrorRate");
    }
    c.throwIfAny();
  }
}
