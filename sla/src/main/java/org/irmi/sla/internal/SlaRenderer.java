package org.irmi.sla.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.irmi.sla.ActionConfig;
import org.irmi.sla.AdaptiveLimitConfig;
import org.irmi.sla.ArgumentSignature;
import org.irmi.sla.CausalPair;
import org.irmi.sla.CrosstalkConfig;
import org.irmi.sla.CustomModuleConfig;
import org.irmi.sla.DeferConfig;
import org.irmi.sla.DegradeConfig;
import org.irmi.sla.ModuleConfig;
import org.irmi.sla.MonitorsConfig;
import org.irmi.sla.OperationPattern;
import org.irmi.sla.PoisonConfig;
import org.irmi.sla.RejectConfig;
import org.irmi.sla.RemoteLoadThresholds;
import org.irmi.sla.RerouteConfig;
import org.irmi.sla.ServiceObjective;
import org.irmi.sla.ShortCircuitConfig;
import org.irmi.sla.Sla;
import org.irmi.sla.SlowClientConfig;
import org.irmi.sla.StreamWeight;
import org.irmi.sla.TargetSelector;
import org.irmi.sla.ThrottleConfig;
import org.irmi.sla.WindowConfig;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.common.FlowStyle;

/**
 * Renders an {@link Sla} as YAML with every value written out (defaults included), in the key order
 * of {@link SlaKeys}, with explicit units. Parsing the output gives an equal {@code Sla}.
 */
public final class SlaRenderer {

  private SlaRenderer() {}

  /** The YAML text of {@code sla}. */
  public static String render(Sla sla) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("service", sla.service());
    if (!sla.objectives().isEmpty()) {
      List<Object> list = new ArrayList<>();
      for (ServiceObjective o : sla.objectives()) {
        list.add(objective(o));
      }
      root.put("objectives", list);
    }
    root.put("monitors", monitors(sla.monitors()));
    Map<String, Object> points = new LinkedHashMap<>();
    sla.isolationPoints().slowClient().ifPresent(c -> points.put("slowClient", slowClient(c)));
    sla.isolationPoints().poison().ifPresent(c -> points.put("poison", poison(c)));
    sla.isolationPoints().crosstalk().ifPresent(c -> points.put("crosstalk", crosstalk(c)));
    if (!points.isEmpty()) {
      root.put("isolationPoints", points);
    }
    DumpSettings settings = DumpSettings.builder()
        .setDefaultFlowStyle(FlowStyle.BLOCK)
        .setIndent(2)
        .setIndicatorIndent(2)
        .setIndentWithIndicator(true)
        .setWidth(120)
        .build();
    return "# SLA of service " + sla.service() + ", rendered by I-RMI with every default written out\n"
        + new Dump(settings).dumpToString(root);
  }

  private static Map<String, Object> objective(ServiceObjective o) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("operation", o.operation().glob());
    o.p99Latency().ifPresent(d -> m.put("p99Latency", Units.formatDuration(d)));
    o.minThroughputPerSecond().ifPresent(r -> m.put("minThroughput", Units.formatPerSecond(r)));
    o.maxErrorRatePercent().ifPresent(p -> m.put("maxErrorRate", Units.formatPercent(p)));
    return m;
  }

  private static Map<String, Object> monitors(MonitorsConfig c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("requestRates", window(c.requestRates()));
    m.put("localResources", window(c.localResources()));
    m.put("remoteResources", window(c.remoteResources()));
    m.put("latency", window(c.latency()));
    m.put("perRequestCost", c.perRequestCost());
    if (!c.causalPairs().isEmpty()) {
      List<Object> pairs = new ArrayList<>();
      for (CausalPair p : c.causalPairs()) {
        Map<String, Object> pm = new LinkedHashMap<>();
        pm.put("incoming", p.incoming().glob());
        pm.put("target", p.target().glob());
        pm.put("outgoing", p.outgoing().glob());
        pm.put("fanout", number(p.fanOut()));
        pairs.add(pm);
      }
      m.put("causalPairs", pairs);
    }
    return m;
  }

  private static Map<String, Object> window(WindowConfig w) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("length", Units.formatDuration(w.length()));
    m.put("buckets", w.buckets());
    return m;
  }

  private static Map<String, Object> slowClient(SlowClientConfig c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("enabled", c.enabled());
    List<Object> targets = new ArrayList<>();
    for (TargetSelector t : c.targets()) {
      Map<String, Object> tm = new LinkedHashMap<>();
      tm.put("target", t.target().glob());
      tm.put("operations", globs(t.operations()));
      targets.add(tm);
    }
    m.put("targets", targets);
    m.put("queueGrowth", Units.formatPerSecond(c.queueGrowthPerSecond()));
    m.put("maxQueueLength", c.maxQueueLength());
    c.queueGauge().ifPresent(g -> m.put("queueGauge", g));
    m.put("heapPressure", Units.formatPercent(c.heapPressurePercent()));
    m.put("gcRate", Units.formatPerSecond(c.gcPerSecond()));
    m.put("cpu", Units.formatPercent(c.cpuPercent()));
    RemoteLoadThresholds r = c.remoteLoad();
    Map<String, Object> rm = new LinkedHashMap<>();
    rm.put("cpu", Units.formatPercent(r.cpuPercent()));
    rm.put("heapPressure", Units.formatPercent(r.heapPressurePercent()));
    rm.put("queueLength", r.queueLength());
    rm.put("gcRate", Units.formatPerSecond(r.gcPerSecond()));
    if (!r.rtt().isZero()) {
      rm.put("rtt", Units.formatDuration(r.rtt()));
    }
    m.put("remoteLoad", rm);
    m.put("reactToPeerOverload", c.reactToPeerOverload());
    m.put("action", action(c.action()));
    return m;
  }

  private static Map<String, Object> poison(PoisonConfig c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("enabled", c.enabled());
    m.put("throughputDrop", Units.formatPercent(c.throughputDropPercent()));
    m.put("resourceRise", Units.formatPercent(c.resourceRisePercent()));
    m.put("resources", c.resources().stream().map(r -> r.name().toLowerCase(Locale.ROOT)).toList());
    m.put("baselineWindow", window(c.baselineWindow()));
    m.put("detectionWindow", window(c.detectionWindow()));
    m.put("minEpisode", Units.formatDuration(c.minEpisode()));
    m.put("attribution", c.attribution());
    m.put("confirmEpisodes", c.confirmEpisodes());
    m.put("coolDown", Units.formatDuration(c.coolDown()));
    Map<String, Object> pm = new LinkedHashMap<>();
    pm.put("rate", Units.formatPerSecond(c.probation().ratePerSecond()));
    pm.put("admitAfter", Units.formatDuration(c.probation().admitAfter()));
    m.put("probation", pm);
    if (!c.signatures().isEmpty()) {
      List<Object> sigs = new ArrayList<>();
      for (ArgumentSignature s : c.signatures()) {
        Map<String, Object> sm = new LinkedHashMap<>();
        sm.put("name", s.name());
        sm.put("operation", s.operation().glob());
        sm.put("offset", s.offset());
        sm.put("length", s.length());
        s.pattern().ifPresent(p -> sm.put("pattern", p));
        sigs.add(sm);
      }
      m.put("signatures", sigs);
    }
    if (!c.neverFilter().isEmpty()) {
      m.put("neverFilter", globs(c.neverFilter()));
    }
    m.put("action", action(c.action()));
    return m;
  }

  private static Map<String, Object> crosstalk(CrosstalkConfig c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("enabled", c.enabled());
    m.put("baseReadBudget", Units.formatBytes(c.baseReadBudgetBytes()));
    Map<String, Object> rb = new LinkedHashMap<>();
    rb.put("min", Units.formatBytes(c.minReceiveBufferBytes()));
    rb.put("max", Units.formatBytes(c.maxReceiveBufferBytes()));
    m.put("receiveBuffer", rb);
    m.put("defaultWeight", number(c.defaultWeight()));
    m.put("idleAfter", Units.formatDuration(c.idleAfter()));
    m.put("weightPer", c.weightPer().yaml());
    if (!c.weights().isEmpty()) {
      List<Object> ws = new ArrayList<>();
      for (StreamWeight w : c.weights()) {
        Map<String, Object> wm = new LinkedHashMap<>();
        wm.put(w.kind().yaml(), w.value());
        wm.put("weight", number(w.weight()));
        ws.add(wm);
      }
      m.put("weights", ws);
    }
    return m;
  }

  private static Map<String, Object> action(ActionConfig a) {
    Map<String, Object> m = new LinkedHashMap<>();
    ModuleConfig module = a.module();
    m.put("module", module.name());
    if (module instanceof RejectConfig r) {
      m.put("kind", r.kind().name());
      r.minorCode().ifPresent(code -> m.put("minorCode", String.format("0x%08X", code)));
      m.put("reason", r.reason());
    } else if (module instanceof ShortCircuitConfig s) {
      s.result().ifPresent(v -> m.put("result", v));
      m.put("dropOneways", s.dropOneways());
    } else if (module instanceof RerouteConfig r) {
      m.put("replicas", r.replicas());
      r.namingService().ifPresent(ns -> m.put("namingService", ns));
      m.put("refresh", Units.formatDuration(r.refresh()));
    } else if (module instanceof DeferConfig d) {
      m.put("capacity", d.capacity());
      m.put("retryDelay", Units.formatDuration(d.retryDelay()));
      m.put("maxRetries", d.maxRetries());
      m.put("whenFull", d.whenFull().yaml());
    } else if (module instanceof DegradeConfig d) {
      m.put("reducer", d.reducer());
    } else if (module instanceof ThrottleConfig t) {
      m.put("rate", Units.formatPerSecond(t.ratePerSecond()));
      m.put("burst", t.burst());
    } else if (module instanceof AdaptiveLimitConfig l) {
      m.put("algorithm", l.algorithm().name().toLowerCase(Locale.ROOT));
      m.put("initialLimit", l.initialLimit());
      m.put("minLimit", l.minLimit());
      m.put("maxLimit", l.maxLimit());
      if (l.algorithm() == AdaptiveLimitConfig.Algorithm.GRADIENT) {
        Map<String, Object> g = new LinkedHashMap<>();
        g.put("smoothing", number(l.gradient().smoothing()));
        g.put("rttTolerance", number(l.gradient().rttTolerance()));
        g.put("longWindow", l.gradient().longWindow());
        g.put("queueSize", l.gradient().queueSize());
        m.put("gradient", g);
      } else {
        Map<String, Object> g = new LinkedHashMap<>();
        g.put("backoffRatio", number(l.aimd().backoffRatio()));
        g.put("increase", l.aimd().increase());
        g.put("timeout", Units.formatDuration(l.aimd().timeout()));
        m.put("aimd", g);
      }
    } else if (module instanceof CustomModuleConfig c) {
      c.params().toPlain().forEach((k, v) -> m.put(k, plainScalars(v)));
    }
    a.fallback().ifPresent(f -> m.put("fallback", action(f)));
    return m;
  }

  /**
   * Raw parameters are text; write whole numbers and booleans unquoted when their text is canonical
   * (so they read back as the same text), everything else as strings.
   */
  private static Object plainScalars(Object v) {
    if (v instanceof String s) {
      if (s.equals("true") || s.equals("false")) {
        return Boolean.valueOf(s);
      }
      if (s.matches("-?[1-9][0-9]{0,17}|0")) {
        return Long.valueOf(s);
      }
      return s;
    }
    if (v instanceof List<?> l) {
      return l.stream().map(SlaRenderer::plainScalars).toList();
    }
    if (v instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, x) -> out.put(String.valueOf(k), plainScalars(x)));
      return out;
    }
    return v;
  }

  private static List<String> globs(List<OperationPattern> patterns) {
    return patterns.stream().map(OperationPattern::glob).toList();
  }

  private static Object number(double d) {
    String s = Units.formatNumber(d);
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      return d;
    }
  }
}
