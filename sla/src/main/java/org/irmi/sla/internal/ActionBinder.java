package org.irmi.sla.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.irmi.sla.ActionConfig;
import org.irmi.sla.AdaptiveLimitConfig;
import org.irmi.sla.CustomModuleConfig;
import org.irmi.sla.DeferConfig;
import org.irmi.sla.DegradeConfig;
import org.irmi.sla.ModuleConfig;
import org.irmi.sla.RejectConfig;
import org.irmi.sla.RerouteConfig;
import org.irmi.sla.ShortCircuitConfig;
import org.irmi.sla.SlaParam;
import org.irmi.sla.SlaParams;
import org.irmi.sla.SystemExceptionKind;
import org.irmi.sla.ThrottleConfig;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * Binds an {@code action}: the adaptation module it names with that module's parameters (a built-in
 * module onto its config record, a third-party module as raw parameters that keep their positions),
 * and its {@code fallback} chain.
 */
final class ActionBinder {

  private static final int MAX_PARAM_DEPTH = 16;

  private final SectionReader reader;
  private final BindErrors errors;

  ActionBinder(SectionReader reader) {
    this.reader = reader;
    this.errors = reader.errors();
  }

  /** The action under {@code key}; null if absent or invalid. */
  ActionConfig action(Section parent, String key) {
    Optional<Node> v = parent.value(key);
    if (v.isEmpty()) {
      return null;
    }
    int before = errors.size();
    ActionConfig a = actionOf(v.get(), parent.child(key));
    if (errors.size() > before) {
      parent.markFailed(key);
    }
    return a;
  }

  private ActionConfig actionOf(Node node, String path) {
    Section s = Section.open(errors, node, path, null, "module and its parameters");
    if (s == null) {
      return null;
    }
    String module = s.requiredString("module");
    if (module == null) {
      return null;
    }
    ModuleConfig config;
    if (SlaKeys.BUILT_IN_MODULES.contains(module)) {
      s.allowOnly(SlaKeys.keys(SlaKeys.ACTION_PREFIX + module), " for module '" + module + "'");
      config = switch (module) {
        case ModuleConfig.REJECT -> reject(s);
        case ModuleConfig.SHORT_CIRCUIT -> shortCircuit(s);
        case ModuleConfig.REROUTE -> reroute(s);
        case ModuleConfig.DEFER -> defer(s);
        case ModuleConfig.DEGRADE -> degrade(s);
        case ModuleConfig.THROTTLE -> throttle(s);
        case ModuleConfig.ADAPTIVE_LIMIT -> adaptiveLimit(s);
        default -> throw new IllegalStateException(module);
      };
    } else if (module.contains(".")) {
      config = custom(s, module);
    } else {
      Node at = s.value("module").orElse(node);
      String hint = Suggest.closest(module, SlaKeys.BUILT_IN_MODULES)
          .map(m -> " (did you mean '" + m + "'?)")
          .orElse("; built-in modules are " + String.join(", ", SlaKeys.BUILT_IN_MODULES)
              + ", and a third-party module needs a namespaced name such as com.acme." + module);
      s.fail("module", at, "unknown adaptation module '" + module + "'" + hint);
      return null;
    }
    Optional<ActionConfig> fallback = Optional.empty();
    if (s.has("fallback")) {
      ActionConfig f = action(s, "fallback");
      if (f == null) {
        return null;
      }
      fallback = Optional.of(f);
    }
    if (config == null) {
      return null;
    }
    Optional<ActionConfig> fb = fallback;
    return s.construct(() -> new ActionConfig(config, fb));
  }

  private RejectConfig reject(Section s) {
    SystemExceptionKind kind = s.scalar("kind", "TRANSIENT or NO_RESOURCES",
        t -> SectionReader.choice(t, SystemExceptionKind.class, Map.of("TRANSIENT", SystemExceptionKind.TRANSIENT,
            "NO_RESOURCES", SystemExceptionKind.NO_RESOURCES)));
    Long minor = s.scalar("minorCode", "a minor code such as 0x49524001", t -> {
      long v;
      try {
        v = t.startsWith("0x") || t.startsWith("0X") ? Long.parseLong(t.substring(2), 16) : Long.parseLong(t);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("expected a whole number (decimal or 0x hex), got '" + t + "'");
      }
      if (v < 0 || v > 0xFFFF_FFFFL) {
        throw new IllegalArgumentException("must be between 0 and 0xFFFFFFFF, was " + t);
      }
      return v;
    });
    String reason = s.string("reason");
    return s.construct(() -> new RejectConfig(kind == null ? RejectConfig.DEFAULT_KIND : kind,
        minor == null ? OptionalInt.empty() : OptionalInt.of((int) (long) minor),
        reason == null ? RejectConfig.DEFAULT_REASON : reason));
  }

  private ShortCircuitConfig shortCircuit(Section s) {
    String result = s.string("result");
    Boolean drop = s.bool("dropOneways");
    return s.construct(() -> new ShortCircuitConfig(Optional.ofNullable(result),
        drop == null ? ShortCircuitConfig.DEFAULT_DROP_ONEWAYS : drop));
  }

  private RerouteConfig reroute(Section s) {
    String replicas = s.requiredString("replicas");
    String ns = s.string("namingService");
    Duration refresh = s.duration("refresh");
    if (replicas == null) {
      return null;
    }
    return s.construct(() -> new RerouteConfig(replicas, Optional.ofNullable(ns),
        refresh == null ? RerouteConfig.DEFAULT_REFRESH : refresh));
  }

  private DeferConfig defer(Section s) {
    Integer capacity = s.intValue("capacity", Integer.MAX_VALUE);
    Duration delay = s.duration("retryDelay");
    Integer retries = s.intValue("maxRetries", Integer.MAX_VALUE);
    Map<String, DeferConfig.WhenFull> options = new LinkedHashMap<>();
    for (DeferConfig.WhenFull w : DeferConfig.WhenFull.values()) {
      options.put(w.yaml(), w);
    }
    DeferConfig.WhenFull whenFull = s.scalar("whenFull", "reject, drop-oldest or short-circuit",
        t -> SectionReader.choice(t, DeferConfig.WhenFull.class, options));
    return s.construct(() -> new DeferConfig(
        capacity == null ? DeferConfig.DEFAULT_CAPACITY : capacity,
        delay == null ? DeferConfig.DEFAULT_RETRY_DELAY : delay,
        retries == null ? DeferConfig.DEFAULT_MAX_RETRIES : retries,
        whenFull == null ? DeferConfig.DEFAULT_WHEN_FULL : whenFull));
  }

  private DegradeConfig degrade(Section s) {
    String reducer = s.requiredString("reducer");
    if (reducer == null) {
      return null;
    }
    return s.construct(() -> new DegradeConfig(reducer));
  }

  private ThrottleConfig throttle(Section s) {
    Double rate = s.perSecond("rate");
    if (!s.keys().contains("rate")) {
      s.missing("rate");
    }
    Integer burst = s.intValue("burst", Integer.MAX_VALUE);
    if (rate == null) {
      return null;
    }
    return s.construct(() -> new ThrottleConfig(rate, burst == null ? ThrottleConfig.DEFAULT_BURST : burst));
  }

  private AdaptiveLimitConfig adaptiveLimit(Section s) {
    AdaptiveLimitConfig.Algorithm algorithm = s.scalar("algorithm", "gradient or aimd",
        t -> SectionReader.choice(t, AdaptiveLimitConfig.Algorithm.class, Map.of("gradient", AdaptiveLimitConfig.Algorithm.GRADIENT,
            "aimd", AdaptiveLimitConfig.Algorithm.AIMD)));
    AdaptiveLimitConfig.Algorithm algo = algorithm == null ? AdaptiveLimitConfig.DEFAULT_ALGORITHM : algorithm;
    Integer initial = s.intValue("initialLimit", Integer.MAX_VALUE);
    Integer min = s.intValue("minLimit", Integer.MAX_VALUE);
    Integer max = s.intValue("maxLimit", Integer.MAX_VALUE);
    AdaptiveLimitConfig.Gradient gradient = AdaptiveLimitConfig.Gradient.DEFAULT;
    AdaptiveLimitConfig.Aimd aimd = AdaptiveLimitConfig.Aimd.DEFAULT;
    if (s.has("gradient")) {
      if (algo != AdaptiveLimitConfig.Algorithm.GRADIENT) {
        s.fail("gradient", s.keyNode("gradient").orElseThrow(),
            "gradient parameters given but algorithm is " + algo.name().toLowerCase(Locale.ROOT)
                + "; remove them or set algorithm: gradient");
      } else {
        gradient = reader.sub(s, "gradient", SlaKeys.GRADIENT, "gradient parameters", g -> {
          AdaptiveLimitConfig.Gradient d = AdaptiveLimitConfig.Gradient.DEFAULT;
          Double smoothing = g.number("smoothing");
          Double tolerance = g.number("rttTolerance");
          Integer longWindow = g.intValue("longWindow", Integer.MAX_VALUE);
          Integer queueSize = g.intValue("queueSize", Integer.MAX_VALUE);
          return g.construct(() -> new AdaptiveLimitConfig.Gradient(
              smoothing == null ? d.smoothing() : smoothing,
              tolerance == null ? d.rttTolerance() : tolerance,
              longWindow == null ? d.longWindow() : longWindow,
              queueSize == null ? d.queueSize() : queueSize));
        });
      }
    }
    if (s.has("aimd")) {
      if (algo != AdaptiveLimitConfig.Algorithm.AIMD) {
        s.fail("aimd", s.keyNode("aimd").orElseThrow(),
            "aimd parameters given but algorithm is " + algo.name().toLowerCase(Locale.ROOT)
                + "; remove them or set algorithm: aimd");
      } else {
        aimd = reader.sub(s, "aimd", SlaKeys.AIMD, "aimd parameters", a -> {
          AdaptiveLimitConfig.Aimd d = AdaptiveLimitConfig.Aimd.DEFAULT;
          Double backoff = a.number("backoffRatio");
          Integer increase = a.intValue("increase", Integer.MAX_VALUE);
          Duration timeout = a.duration("timeout");
          return a.construct(() -> new AdaptiveLimitConfig.Aimd(
              backoff == null ? d.backoffRatio() : backoff,
              increase == null ? d.increase() : increase,
              timeout == null ? d.timeout() : timeout));
        });
      }
    }
    if (gradient == null || aimd == null) {
      return null;
    }
    AdaptiveLimitConfig.Gradient g = gradient;
    AdaptiveLimitConfig.Aimd a = aimd;
    return s.construct(() -> new AdaptiveLimitConfig(algo,
        initial == null ? AdaptiveLimitConfig.DEFAULT_INITIAL_LIMIT : initial,
        min == null ? AdaptiveLimitConfig.DEFAULT_MIN_LIMIT : min,
        max == null ? AdaptiveLimitConfig.DEFAULT_MAX_LIMIT : max, g, a));
  }

  private CustomModuleConfig custom(Section s, String module) {
    Map<String, SlaParam> params = new LinkedHashMap<>();
    for (String key : s.keys()) {
      if (key.equals("module") || key.equals("fallback")) {
        continue;
      }
      params.put(key, raw(s.keyNode(key).orElseThrow(), s.value(key).orElseThrow(), s.child(key)));
    }
    Mark m = s.node().getStartMark().orElse(null);
    SlaParams p = new SlaParams(errors.source, m == null ? 1 : m.getLine() + 1, m == null ? 1 : m.getColumn() + 1,
        s.path(), params);
    return s.construct(() -> new CustomModuleConfig(module, p));
  }

  /** Converts a node to a raw parameter, keeping positions; reports duplicate keys in nested maps. */
  private SlaParam raw(Node keyNode, Node n, String path) {
    return raw(keyNode, n, path, 0, path);
  }

  private SlaParam raw(Node keyNode, Node n, String path, int depth, String topPath) {
    Mark m = n.getStartMark().orElse(null);
    int line = m == null ? 1 : m.getLine() + 1;
    int col = m == null ? 1 : m.getColumn() + 1;
    Mark km = keyNode == null ? m : keyNode.getStartMark().orElse(m);
    int keyLine = km == null ? line : km.getLine() + 1;
    int keyCol = km == null ? col : km.getColumn() + 1;
    if (n instanceof ScalarNode sc) {
      return new SlaParam(errors.source, keyLine, keyCol, line, col, path, SectionReader.isNull(sc) ? "" : sc.getValue());
    }
    if (depth >= MAX_PARAM_DEPTH) {
      // Also stops an alias that refers to itself.
      errors.at(n, path, topPath + ": parameters nest deeper than " + MAX_PARAM_DEPTH + " levels (a recursive alias?)");
      return new SlaParam(errors.source, keyLine, keyCol, line, col, path, "");
    }
    if (n instanceof SequenceNode seq) {
      List<SlaParam> items = new ArrayList<>();
      for (int i = 0; i < seq.getValue().size(); i++) {
        items.add(raw(null, seq.getValue().get(i), path + "[" + i + "]", depth + 1, topPath));
      }
      return new SlaParam(errors.source, keyLine, keyCol, line, col, path, items);
    }
    Map<String, SlaParam> map = new LinkedHashMap<>();
    Map<String, Integer> keyLines = new LinkedHashMap<>();
    for (NodeTuple t : ((MappingNode) n).getValue()) {
      if (!(t.getKeyNode() instanceof ScalarNode k)) {
        errors.at(t.getKeyNode(), path, "a key in " + path + " must be a plain name");
        continue;
      }
      if (map.containsKey(k.getValue())) {
        errors.at(k, path + "." + k.getValue(), "duplicate key '" + k.getValue() + "' in " + path
            + " (first defined at line " + keyLines.get(k.getValue()) + ")");
        continue;
      }
      keyLines.put(k.getValue(), k.getStartMark().map(mk -> mk.getLine() + 1).orElse(0));
      map.put(k.getValue(), raw(k, t.getValueNode(), path + "." + k.getValue(), depth + 1, topPath));
    }
    return new SlaParam(errors.source, keyLine, keyCol, line, col, path, new SlaParams(errors.source, line, col, path, map));
  }
}
