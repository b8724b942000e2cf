package org.irmi.sla;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.irmi.sla.internal.Check;

/**
 * The slow-client isolation point (acts on outgoing calls before marshalling). YAML section
 * {@code isolationPoints.slowClient}.
 *
 * <p>Trigger for a guarded call: the <em>queue condition</em> (the causal pairs' estimated queue
 * growth is at least {@code queueGrowth}, or the estimated or gauged queue length is at least
 * {@code maxQueueLength}) together with <em>resource pressure</em> (local heap pressure, GC rate or
 * CPU at or above its threshold, or the target host's load report crossing {@code remoteLoad}); or,
 * with {@code reactToPeerOverload}, the target host advertising overload in its load report.
 *
 * @param enabled whether the point acts (default true); a disabled point still keeps its config
 * @param targets which outgoing calls are guarded (default: all)
 * @param queueGrowthPerSecond queue growth threshold, in - out calls per second (default 10/s)
 * @param maxQueueLength estimated queue length threshold in calls (default 1000)
 * @param queueGauge name of an application-registered queue gauge used instead of the estimate
 * @param heapPressurePercent local heap used after GC over max heap (default 80%)
 * @param gcPerSecond local collections per second (default 5/s)
 * @param cpuPercent local process CPU (default 90%)
 * @param remoteLoad thresholds on the target host's load report
 * @param reactToPeerOverload act as soon as the target host advertises overload (default true)
 * @param action what to do with a guarded call while triggered (default: reject TRANSIENT)
 * @param queueLow the queue a triggered pair must drain to while pressure lasts before it is released,
 *     0 to 1000000000 and below {@code maxQueueLength} (default a tenth of it); not an SLA key
 * @param minHold the least time a triggered pair stays triggered, damping flapping, 0 to 1h (default 1s);
 *     not an SLA key
 */
public record SlowClientConfig(
    boolean enabled,
    List<TargetSelector> targets,
    double queueGrowthPerSecond,
    long maxQueueLength,
    Optional<String> queueGauge,
    double heapPressurePercent,
    double gcPerSecond,
    double cpuPercent,
    RemoteLoadThresholds remoteLoad,
    boolean reactToPeerOverload,
    ActionConfig action,
    double queueLow,
    Duration minHold) {

  public static final List<TargetSelector> DEFAULT_TARGETS = List.of(TargetSelector.ALL);
  public static final double DEFAULT_QUEUE_GROWTH_PER_SECOND = 10;
  public static final long DEFAULT_MAX_QUEUE_LENGTH = 1000;
  public static final double DEFAULT_HEAP_PRESSURE_PERCENT = 80;
  public static final double DEFAULT_GC_PER_SECOND = 5;
  public static final double DEFAULT_CPU_PERCENT = 90;
  public static final boolean DEFAULT_REACT_TO_PEER_OVERLOAD = true;
  public static final Duration DEFAULT_MIN_HOLD = Duration.ofSeconds(1);

  /** Validates every field. */
  public SlowClientConfig {
    targets = List.copyOf(targets);
    Objects.requireNonNull(queueGauge, "queueGauge");
    Objects.requireNonNull(remoteLoad, "remoteLoad");
    Objects.requireNonNull(action, "action");
    Check c = new Check();
    if (targets.isEmpty()) {
      c.fail("targets", "must list at least one target (use {target: '*'} for all)");
    }
    c.rate("queueGrowth", queueGrowthPerSecond, 0, 1e9);
    c.range("maxQueueLength", maxQueueLength, 1, 1_000_000_000);
    queueGauge.ifPresent(g -> c.notBlank("queueGauge", g));
    c.percent("heapPressure", heapPressurePercent, 1, 100);
    c.rate("gcRate", gcPerSecond, 0, 1e6);
    c.percent("cpu", cpuPercent, 1, 100);
    c.range("queueLow", queueLow, 0, 1e9);
    if (queueLow >= maxQueueLength) {
      c.fail("queueLow", "must be below maxQueueLength (" + maxQueueLength + "), was "
          + org.irmi.sla.internal.Units.formatNumber(queueLow));
    }
    c.duration("minHold", minHold, Duration.ZERO, Duration.ofHours(1));
    c.throwIfAny();
  }

  /** All defaults. */
  public static SlowClientConfig ofDefaults() {
    return custom().build();
  }

  /** A builder starting from the defaults. */
  public static Builder custom() {
    return new Builder();
  }

  /** Whether any selector guards this outgoing call. */
  public boolean guards(String targetName, String operation) {
    for (TargetSelector t : targets) {
      if (t.matches(targetName, operation)) {
        return true;
      }
    }
    return false;
  }

  /** Builder; {@link #build()} validates. */
  public static final class Builder {
    private boolean enabled = true;
    private List<TargetSelector> targets = DEFAULT_TARGETS;
    private double queueGrowthPerSecond = DEFAULT_QUEUE_GROWTH_PER_SECOND;
    private long maxQueueLength = DEFAULT_MAX_QUEUE_LENGTH;
    private Optional<String> queueGauge = Optional.empty();
    private double heapPressurePercent = DEFAULT_HEAP_PRESSURE_PERCENT;
    private double gcPerSecond = DEFAULT_GC_PER_SECOND;
    private double cpuPercent = DEFAULT_CPU_PERCENT;
    private RemoteLoadThresholds remoteLoad = RemoteLoadThresholds.DEFAULT;
    private boolean reactToPeerOverload = DEFAULT_REACT_TO_PEER_OVERLOAD;
    private ActionConfig action = ActionConfig.DEFAULT;
    private Double queueLow;
    private Duration minHold = DEFAULT_MIN_HOLD;

    private Builder() {}

    public Builder enabled(boolean v) { enabled = v; return this; }
    public Builder targets(List<TargetSelector> v) { targets = new ArrayList<>(v); return this; }
    public Builder queueGrowthPerSecond(double v) { queueGrowthPerSecond = v; return this; }
    public Builder maxQueueLength(long v) { maxQueueLength = v; return this; }
    public Builder queueGauge(String v) { queueGauge = Optional.ofNullable(v); return this; }
    public Builder heapPressurePercent(double v) { heapPressurePercent = v; return this; }
    public Builder gcPerSecond(double v) { gcPerSecond = v; return this; }
    public Builder cpuPercent(double v) { cpuPercent = v; return this; }
    public Builder remoteLoad(RemoteLoadThresholds v) { remoteLoad = v; return this; }
    public Builder reactToPeerOverload(boolean v) { reactToPeerOverload = v; return this; }
    public Builder action(ActionConfig v) { action = v; return this; }
    /** The queue a triggered pair drains to before release; unless set, a tenth of {@code maxQueueLength}. */
    public Builder queueLow(double v) { queueLow = v; return this; }
    public Builder minHold(Duration v) { minHold = v; return this; }

    public SlowClientConfig build() {
      return new SlowClientConfig(enabled, targets, queueGrowthPerSecond, maxQueueLength, queueGauge,
          heapPressurePercent, gcPerSecond, cpuPercent, remoteLoad, reactToPeerOverload, action,
          queueLow != null ? queueLow : maxQueueLength / 10.0, minHold);
    }
  }
}
