package org.irmi.sla;

import java.time.Duration;
import java.util.Objects;
import org.irmi.sla.internal.Check;

/**
 * Thresholds on a target host's advertised load report (the windowed averages of its reports).
 * Crossing any one of them counts as remote resource pressure. YAML section {@code remoteLoad}.
 *
 * @param cpuPercent remote process CPU, 1% to 100% (default 90%)
 * @param heapPressurePercent remote heap used after GC over max heap, 1% to 100% (default 85%)
 * @param queueLength remote hand-off queue length, 1 to 1000000000 (default 1000)
 * @param gcPerSecond remote collections per second, more than 0 (default 10/s)
 * @param rtt smoothed round trip of the calls to the target above which it counts as pressed,
 *     0 to 1h; 0 (the default) turns this evidence off
 */
public record RemoteLoadThresholds(double cpuPercent, double heapPressurePercent, long queueLength, double gcPerSecond,
                                   Duration rtt) {

  public static final RemoteLoadThresholds DEFAULT = new RemoteLoadThresholds(90, 85, 1000, 10);

  /** Thresholds without a round-trip threshold. */
  public RemoteLoadThresholds(double cpuPercent, double heapPressurePercent, long queueLength, double gcPerSecond) {
    this(cpuPercent, heapPressurePercent, queueLength, gcPerSecond, Duration.ZERO);
  }

  /** Validates every field. */
  public RemoteLoadThresholds {
    Objects.requireNonNull(rtt, "rtt");
    Check c = new Check();
    c.duration("rtt", rtt, Duration.ZERO, Duration.ofHours(1));
    c.percent("cpu", cpuPercent, 1, 100);
    c.percent("heapPressure", heapPressurePercent, 1, 100);
    c.range("queueLength", queueLength, 1, 1_000_000_000);
    c.rate("gcRate", gcPerSecond, 0, 1e6);
    c.throwIfAny();
  }
}
