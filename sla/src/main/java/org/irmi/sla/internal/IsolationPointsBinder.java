package org.irmi.sla.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.irmi.sla.ActionConfig;
import org.irmi.sla.ArgumentSignature;
import org.irmi.sla.CrosstalkConfig;
import org.irmi.sla.IsolationPointsConfig;
import org.irmi.sla.OperationPattern;
import org.irmi.sla.PoisonConfig;
import org.irmi.sla.ProbationConfig;
import org.irmi.sla.RemoteLoadThresholds;
import org.irmi.sla.SlowClientConfig;
import org.irmi.sla.StreamWeight;
import org.irmi.sla.TargetSelector;
import org.irmi.sla.WindowConfig;

/**
 * Binds the SLA's {@code isolationPoints} section: the slow-client, poison and crosstalk points, each
 * onto its one config record, with their targets, thresholds, signatures and weights.
 */
final class IsolationPointsBinder {

  private final SectionReader reader;
  private final ActionBinder actions;

  IsolationPointsBinder(SectionReader reader, ActionBinder actions) {
    this.reader = reader;
    this.actions = actions;
  }

  IsolationPointsConfig isolationPoints(Section s) {
    Optional<SlowClientConfig> slow = Optional.empty();
    Optional<PoisonConfig> poison = Optional.empty();
    Optional<CrosstalkConfig> crosstalk = Optional.empty();
    boolean ok = true;
    if (s.has("slowClient")) {
      SlowClientConfig c = reader.sub(s, "slowClient", SlaKeys.SLOW_CLIENT, "slow-client thresholds and action", this::slowClient);
      ok &= c != null;
      slow = Optional.ofNullable(c);
    }
    if (s.has("poison")) {
      PoisonConfig c = reader.sub(s, "poison", SlaKeys.POISON, "poison thresholds and action", this::poison);
      ok &= c != null;
      poison = Optional.ofNullable(c);
    }
    if (s.has("crosstalk")) {
      CrosstalkConfig c = reader.sub(s, "crosstalk", SlaKeys.CROSSTALK, "read budget, buffers and weights", this::crosstalk);
      ok &= c != null;
      crosstalk = Optional.ofNullable(c);
    }
    if (!ok) {
      return null;
    }
    Optional<SlowClientConfig> a = slow;
    Optional<PoisonConfig> b = poison;
    Optional<CrosstalkConfig> c = crosstalk;
    return s.construct(() -> new IsolationPointsConfig(a, b, c));
  }

  private SlowClientConfig slowClient(Section s) {
    SlowClientConfig.Builder b = SlowClientConfig.custom();
    Boolean enabled = s.bool("enabled");
    if (enabled != null) {
      b.enabled(enabled);
    }
    if (s.keys().contains("targets")) {
      List<TargetSelector> targets = reader.itemList(s, "targets", SlaKeys.TARGET, "targets", this::target);
      if (targets != null) {
        b.targets(targets);
      }
    }
    Double d;
    Long l;
    if ((d = s.perSecond("queueGrowth")) != null) {
      b.queueGrowthPerSecond(d);
    }
    if ((l = s.integer("maxQueueLength")) != null) {
      b.maxQueueLength(l);
    }
    String gauge = s.string("queueGauge");
    if (gauge != null) {
      b.queueGauge(gauge);
    }
    if ((d = s.percent("heapPressure")) != null) {
      b.heapPressurePercent(d);
    }
    if ((d = s.perSecond("gcRate")) != null) {
      b.gcPerSecond(d);
    }
    if ((d = s.percent("cpu")) != null) {
      b.cpuPercent(d);
    }
    if (s.has("remoteLoad")) {
      RemoteLoadThresholds r = reader.sub(s, "remoteLoad", SlaKeys.REMOTE_LOAD, "cpu, heapPressure, queueLength, gcRate, rtt",
          this::remoteLoad);
      if (r != null) {
        b.remoteLoad(r);
      }
    }
    Boolean react = s.bool("reactToPeerOverload");
    if (react != null) {
      b.reactToPeerOverload(react);
    }
    ActionConfig action = actions.action(s, "action");
    if (action != null) {
      b.action(action);
    }
    return s.construct(b::build);
  }

  private TargetSelector target(Section s) {
    OperationPattern target = reader.requiredPattern(s, "target");
    List<OperationPattern> ops = s.keys().contains("operations")
        ? s.scalarList("operations", "operation names or globs", OperationPattern::of)
        : List.of(OperationPattern.ANY);
    if (target == null || ops == null) {
      return null;
    }
    return s.construct(() -> new TargetSelector(target, ops));
  }

  private RemoteLoadThresholds remoteLoad(Section s) {
    RemoteLoadThresholds d = RemoteLoadThresholds.DEFAULT;
    Double cpu = s.percent("cpu");
    Double heap = s.percent("heapPressure");
    Long queue = s.integer("queueLength");
    Double gc = s.perSecond("gcRate");
    Duration rtt = s.duration("rtt");
    return s.construct(() -> new RemoteLoadThresholds(
        cpu == null ? d.cpuPercent() : cpu,
        heap == null ? d.heapPressurePercent() : heap,
        queue == null ? d.queueLength() : queue,
        gc == null ? d.gcPerSecond() : gc,
        rtt == null ? d.rtt() : rtt));
  }

  private PoisonConfig poison(Section s) {
    PoisonConfig.Builder b = PoisonConfig.custom();
    Boolean enabled = s.bool("enabled");
    if (enabled != null) {
      b.enabled(enabled);
    }
    Double d;
    if ((d = s.percent("throughputDrop")) != null) {
      b.throughputDropPercent(d);
    }
    if ((d = s.percent("resourceRise")) != null) {
      b.resourceRisePercent(d);
    }
    if (s.keys().contains("resources")) {
      List<PoisonConfig.Resource> r = s.scalarList("resources", "cpu, gc or allocation",
          text -> SectionReader.choice(text, PoisonConfig.Resource.class, Map.of("cpu", PoisonConfig.Resource.CPU,
              "gc", PoisonConfig.Resource.GC, "allocation", PoisonConfig.Resource.ALLOCATION)));
      if (r != null) {
        b.resources(r);
      }
    }
    WindowConfig w;
    if ((w = reader.window(s, "baselineWindow", PoisonConfig.DEFAULT_BASELINE_WINDOW)) != null) {
      b.baselineWindow(w);
    }
    if ((w = reader.window(s, "detectionWindow", PoisonConfig.DEFAULT_DETECTION_WINDOW)) != null) {
      b.detectionWindow(w);
    }
    Duration t;
    if ((t = s.duration("minEpisode")) != null) {
      b.minEpisode(t);
    }
    Boolean attribution = s.bool("attribution");
    if (attribution != null) {
      b.attribution(attribution);
    }
    Integer confirm = s.intValue("confirmEpisodes", Integer.MAX_VALUE);
    if (confirm != null) {
      b.confirmEpisodes(confirm);
    }
    if ((t = s.duration("coolDown")) != null) {
      b.coolDown(t);
    }
    if (s.has("probation")) {
      ProbationConfig p = reader.sub(s, "probation", SlaKeys.PROBATION, "rate and admitAfter", ps -> {
        Double rate = ps.perSecond("rate");
        Duration admit = ps.duration("admitAfter");
        return ps.construct(() -> new ProbationConfig(rate == null ? ProbationConfig.DEFAULT.ratePerSecond() : rate,
            admit == null ? ProbationConfig.DEFAULT.admitAfter() : admit));
      });
      if (p != null) {
        b.probation(p);
      }
    }
    List<ArgumentSignature> sigs = reader.itemList(s, "signatures", SlaKeys.SIGNATURE, "argument signatures", this::signature);
    if (sigs != null) {
      sigs.forEach(b::addSignature);
    }
    if (s.keys().contains("neverFilter")) {
      List<OperationPattern> never = s.scalarList("neverFilter", "operation names or globs", OperationPattern::of);
      if (never != null) {
        never.forEach(b::addNeverFilter);
      }
    }
    ActionConfig action = actions.action(s, "action");
    if (action != null) {
      b.action(action);
    }
    return s.construct(b::build);
  }

  private ArgumentSignature signature(Section s) {
    String name = s.requiredString("name");
    OperationPattern op = reader.requiredPattern(s, "operation");
    Integer offset = s.intValue("offset", Integer.MAX_VALUE);
    if (!s.keys().contains("offset")) {
      s.missing("offset");
    }
    Integer length = s.intValue("length", Integer.MAX_VALUE);
    String pattern = s.string("pattern");
    if (length == null && !s.keys().contains("length") && !s.keys().contains("pattern")) {
      s.missing("length");
      return null;
    }
    if (name == null || op == null || offset == null) {
      return null;
    }
    int len;
    if (length != null) {
      len = length;
    } else if (pattern != null) {
      try {
        len = ArgumentSignature.decode(pattern).length;
      } catch (IllegalArgumentException e) {
        len = 1; // the constructor reports the bad pattern at its position
      }
    } else {
      return null;
    }
    int finalLen = len;
    return s.construct(() -> new ArgumentSignature(name, op, offset, finalLen, Optional.ofNullable(pattern)));
  }

  private CrosstalkConfig crosstalk(Section s) {
    CrosstalkConfig.Builder b = CrosstalkConfig.custom();
    Boolean enabled = s.bool("enabled");
    if (enabled != null) {
      b.enabled(enabled);
    }
    Long bytes = s.bytes("baseReadBudget");
    if (bytes != null) {
      b.baseReadBudgetBytes(bytes);
    }
    if (s.has("receiveBuffer")) {
      long[] minMax = reader.sub(s, "receiveBuffer", SlaKeys.RECEIVE_BUFFER, "min and max", rb -> {
        Long min = rb.bytes("min");
        Long max = rb.bytes("max");
        return new long[] {
          min == null ? CrosstalkConfig.DEFAULT_MIN_RECEIVE_BUFFER_BYTES : min,
          max == null ? CrosstalkConfig.DEFAULT_MAX_RECEIVE_BUFFER_BYTES : max};
      });
      if (minMax != null) {
        b.minReceiveBufferBytes(minMax[0]).maxReceiveBufferBytes(minMax[1]);
      }
    }
    Double w = s.number("defaultWeight");
    if (w != null) {
      b.defaultWeight(w);
    }
    Duration idle = s.duration("idleAfter");
    if (idle != null) {
      b.idleAfter(idle);
    }
    Map<String, CrosstalkConfig.WeightPer> per = new LinkedHashMap<>();
    for (CrosstalkConfig.WeightPer p : CrosstalkConfig.WeightPer.values()) {
      per.put(p.yaml(), p);
    }
    CrosstalkConfig.WeightPer weightPer = s.scalar("weightPer", "connection or rule",
        t -> SectionReader.choice(t, CrosstalkConfig.WeightPer.class, per));
    if (weightPer != null) {
      b.weightPer(weightPer);
    }
    List<StreamWeight> weights = reader.itemList(s, "weights", SlaKeys.WEIGHT, "weights", this::weight);
    if (weights != null) {
      weights.forEach(b::addWeight);
    }
    return s.construct(b::build);
  }

  private StreamWeight weight(Section s) {
    List<StreamWeight.Kind> kinds = new ArrayList<>();
    for (StreamWeight.Kind k : StreamWeight.Kind.values()) {
      if (s.keys().contains(k.yaml())) {
        kinds.add(k);
      }
    }
    Double weight = s.number("weight");
    if (!s.keys().contains("weight")) {
      s.missing("weight");
    }
    if (kinds.size() != 1) {
      s.errors().at(s.node(), s.path(), s.path() + ": a weight needs exactly one of client, objectKey or tag, found "
          + (kinds.isEmpty() ? "none" : kinds.stream().map(StreamWeight.Kind::yaml).toList()));
      return null;
    }
    StreamWeight.Kind kind = kinds.get(0);
    String value = s.string(kind.yaml());
    if (value == null || weight == null) {
      return null;
    }
    return s.construct(() -> new StreamWeight(kind, value, weight));
  }
}
