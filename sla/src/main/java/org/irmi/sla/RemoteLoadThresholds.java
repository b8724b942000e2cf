package org.irmi.sla;

import org.irmi.sla.internal.Check;

/**
 * Thresholds on a target host's advertised load report (the windowed averages of its reports).
 * Crossing any one of them counts as remote resource pressure. YAML section {@code remoteLoad}.
 *
 * @param cpuPercent remote process CPU, 1% to 100% (default 90%)
 * @param heapPressurePercent remote heap used after GC over max heap, 1% to 100% (default 85%)
 * @param queueLength remote hand-off queue length, 1 to 1000000000 (default 1000)
 * @param gcPerSecond remote collections per second, more than 0 (default 10/s)
 */
public record RemoteLoadThresholds(double cpuPercent, double heapPressurePercent, long queueLength, double gcPerSecond) {

  public static final RemoteLoadThresholds DEFAULT = new RemoteLoadThresholds(90, 85, 1000, 10);

  /** Validates every field. */
  public RemoteLoadThresholds {
    Check c = new Check();
    c.percent("cpu", cpuPercent, 1, 100);
    c.percent("heapPressure", heapPressurePercent, 1, 100);
    c.range("queueLength", queueLength, 1, 1_000_000_000);
    c.rate("gcRate", gcPerSecond, 0, 1e6);
    c.throwIfAny();
  }
}
