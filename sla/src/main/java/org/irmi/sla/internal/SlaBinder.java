package org.irmi.sla.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.function.Function;
import org.irmi.sla.ActionConfig;
import org.irmi.sla.AdaptiveLimitConfig;
import org.irmi.sla.ArgumentSignature;
import org.irmi.sla.CausalPair;
import org.irmi.sla.CrosstalkConfig;
import org.irmi.sla.CustomModuleConfig;
import org.irmi.sla.DeferConfig;
import org.irmi.sla.DegradeConfig;
import org.irmi.sla.IsolationPointsConfig;
import org.irmi.sla.ModuleConfig;
import org.irmi.sla.MonitorsConfig;
import org.irmi.sla.OperationPattern;
import org.irmi.sla.PoisonConfig;
import org.irmi.sla.ProbationConfig;
import org.irmi.sla.RejectConfig;
import org.irmi.sla.RemoteLoadThresholds;
import org.irmi.sla.RerouteConfig;
import org.irmi.sla.ServiceObjective;
import org.irmi.sla.ShortCircuitConfig;
import org.irmi.sla.Sla;
import org.irmi.sla.SlaError;
import org.irmi.sla.SlaException;
import org.irmi.sla.SlaParam;
import org.irmi.sla.SlaParams;
import org.irmi.sla.SlowClientConfig;
import org.irmi.sla.StreamWeight;
import org.irmi.sla.SystemExceptionKind;
import org.irmi.sla.TargetSelector;
import org.irmi.sla.ThrottleConfig;
import org.irmi.sla.WindowConfig;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/**
 * Binds SLA YAML onto the immutable config objects. Parses with SnakeYAML Engine's composer (so every
 * node keeps its line and column), walks the node tree section by section, and collects every error
 * with its position. Only a file without errors produces an {@link Sla}; otherwise one
 * {@link SlaException} carries all errors in file order. Nothing is applied half-way because nothing
 * is applied here at all: the caller gets a whole {@code Sla} or none.
 */
public final class SlaBinder {

  private static final int MAX_FILE_CHARS = 1 << 20;
  private static final int MAX_PARAM_DEPTH = 16;

  private final Section.Errors errors;

  private SlaBinder(String source) {
    this.errors = new Section.Errors(source);
  }

  /**
   * Parses and binds.
   *
   * @throws SlaException with every error found, in file order
   */
  public static Sla bind(String yaml, String source) {
    return new SlaBinder(source).run(yaml);
  }

  /** Deepest nesting of flow collections ({@code [ ]} and {@code { }}) an SLA may use. */
  static final int MAX_FLOW_DEPTH = 64;

  /**
   * The line where flow collections first nest deeper than {@link #MAX_FLOW_DEPTH}, or 0: the YAML
   * composer is recursive, and "[[[[...", a few kilobytes of it, overflows its stack.
   * Quoted text and comments are skipped.
   */
  static int deepFlowNestingLine(String yaml) {
    int depth = 0;
    int line = 1;
    char quote = 0;
    boolean comment = false;
    for (int i = 0; i < yaml.length(); i++) {
      char ch = yaml.charAt(i);
      if (ch == '\n') {
        line++;
        comment = false;
        continue;
      }
      if (comment) {
        continue;
      }
      if (quote != 0) {
        if (ch == quote) {
          quote = 0;
        }
        continue;
      }
      switch (ch) {
        case '\'', '"' -> quote = ch;
        case '#' -> comment = i == 0 || Character.isWhitespace(yaml.charAt(i - 1));
        case '[', '{' -> {
          if (++depth > MAX_FLOW_DEPTH) {
            return line;
          }
        }
        case ']', '}' -> depth = Math.max(0, depth - 1);
        default -> {
        }
      }
    }
    return 0;
  }

  private Sla run(String yaml) {
    if (yaml.length() > MAX_FILE_CHARS) {
      errors.at((Mark) null, "", "file is larger than 1 MiB; an SLA file is a few hundred lines");
      throw exception();
    }
    int deepLine = deepFlowNestingLine(yaml);
    if (deepLine > 0) {
      errors.at(deepLine, 1, "", "collections nested more than " + MAX_FLOW_DEPTH + " deep; an SLA needs a few levels");
      throw exception();
    }
    Optional<Node> root;
    try {
      LoadSettings settings = LoadSettings.builder().setLabel(errors.source).setMaxAliasesForCollections(50).build();
      root = new Compose(settings).composeString(yaml);
    } catch (StackOverflowError e) {
      errors.at((Mark) null, "", "the YAML is nested too deep to read; an SLA needs a few levels");
      throw exception();
    } catch (MarkedYamlEngineException e) {
      Mark m = e.getProblemMark().orElse(e.getContextMark().orElse(null));
      String context = e.getContext() == null ? "" : e.getContext() + ": ";
      String started = "";
      Optional<Mark> cm = e.getContextMark();
      if (cm.isPresent() && m != null && cm.get().getLine() != m.getLine()) {
        started = " (the construct began at line " + (cm.get().getLine() + 1) + ", column " + (cm.get().getColumn() + 1) + ")";
      }
      errors.at(m, "", "YAML syntax error: " + context + e.getProblem().trim() + started);
      throw exception();
    } catch (YamlEngineException e) {
      errors.at((Mark) null, "", "YAML error: " + e.getMessage());
      throw exception();
    }
    if (root.isEmpty() || isNull(root.get())) {
      errors.at((Mark) null, "", "the file is empty; an SLA needs at least 'service: <name>'");
      throw exception();
    }
    Sla sla = root(root.get());
    if (errors.size() > 0 || sla == null) {
      if (errors.size() == 0) {
        errors.at(root.get(), "", "the SLA could not be built");
      }
      throw exception();
    }
    return sla;
  }

  private SlaException exception() {
    List<SlaError> sorted = new ArrayList<>(errors.list);
    sorted.sort(Comparator.comparingInt(SlaError::line).thenComparingInt(SlaError::column));
    return new SlaException(sorted);
  }

  private static boolean isNull(Node n) {
    return n instanceof ScalarNode s && s.getTag().equals(Tag.NULL) && s.isPlain();
  }

  // ---------------------------------------------------------------- root

  private Sla root(Node node) {
    Section s = Section.open(errors, node, "", SlaKeys.keys(SlaKeys.ROOT),
        "service, objectives, monitors, isolationPoints");
    if (s == null) {
      return null;
    }
    String service = s.requiredString("service");
    List<ServiceObjective> objectives = itemList(s, "objectives", SlaKeys.OBJECTIVE, "objectives", this::objective);
    MonitorsConfig monitors = s.keys().contains("monitors")
        ? sub(s, "monitors", SlaKeys.MONITORS, "windows and causal pairs", this::monitors)
        : MonitorsConfig.ofDefaults();
    IsolationPointsConfig points = s.keys().contains("isolationPoints")
        ? sub(s, "isolationPoints", SlaKeys.ISOLATION_POINTS, "slowClient, poison, crosstalk", this::isolationPoints)
        : IsolationPointsConfig.NONE;
    if (service == null || objectives == null || monitors == null || points == null) {
      return null;
    }
    return s.construct(() -> new Sla(service, objectives, monitors, points));
  }

  private ServiceObjective objective(Section s) {
    OperationPattern op = s.has("operation") ? s.pattern("operation") : null;
    if (!s.keys().contains("operation")) {
      s.missing("operation");
    }
    Duration p99 = s.duration("p99Latency");
    Double min = s.perSecond("minThroughput");
    Double err = s.percent("maxErrorRate");
    if (op == null) {
      return null;
    }
    return s.construct(() -> new ServiceObjective(op, Optional.ofNullable(p99),
        min == null ? OptionalDouble.empty() : OptionalDouble.of(min),
        err == null ? OptionalDouble.empty() : OptionalDouble.of(err)));
  }

  // ---------------------------------------------------------------- monitors

  private MonitorsConfig monitors(Section s) {
    MonitorsConfig.Builder b = MonitorsConfig.custom();
    WindowConfig w;
    if ((w = window(s, "requestRates", MonitorsConfig.DEFAULT_REQUEST_RATES)) != null) {
      b.requestRates(w);
    }
    if ((w = window(s, "localResources", MonitorsConfig.DEFAULT_LOCAL_RESOURCES)) != null) {
      b.localResources(w);
    }
    if ((w = window(s, "remoteResources", MonitorsConfig.DEFAULT_REMOTE_RESOURCES)) != null) {
      b.remoteResources(w);
    }
    if ((w = window(s, "latency", MonitorsConfig.DEFAULT_LATENCY)) != null) {
      b.latency(w);
    }
    Boolean cost = s.bool("perRequestCost");
    if (cost != null) {
      b.perRequestCost(cost);
    }
    List<CausalPair> pairs = itemList(s, "causalPairs", SlaKeys.CAUSAL_PAIR, "causal pairs", this::causalPair);
    if (pairs != null) {
      pairs.forEach(b::addCausalPair);
    }
    return s.construct(b::build);
  }

  /** A window section; the default when absent, null when invalid. Missing keys take the default's. */
  private WindowConfig window(Section parent, String key, WindowConfig defaults) {
    if (!parent.keys().contains(key)) {
      return defaults;
    }
    return sub(parent, key, SlaKeys.WINDOW, "length and buckets", s -> {
      Duration length = s.duration("length");
      Integer buckets = s.intValue("buckets", Integer.MAX_VALUE);
      Duration l = length == null ? defaults.length() : length;
      int n = buckets == null ? defaults.buckets() : buckets;
      return s.construct(() -> new WindowConfig(l, n));
    });
  }

  private CausalPair causalPair(Section s) {
    OperationPattern in = requiredPattern(s, "incoming");
    OperationPattern target = requiredPattern(s, "target");
    OperationPattern out = requiredPattern(s, "outgoing");
    Double fanout = s.number("fanout");
    if (in == null || target == null || out == null) {
      return null;
    }
    double f = fanout == null ? CausalPair.DEFAULT_FANOUT : fanout;
    return s.construct(() -> new CausalPair(in, target, out, f));
  }

  private OperationPattern requiredPattern(Section s, String key) {
    if (!s.keys().contains(key)) {
      s.missing(key);
      return null;
    }
    return s.pattern(key);
  }

  // ---------------------------------------------------------------- isolation points

  private IsolationPointsConfig isolationPoints(Section s) {
    Optional<SlowClientConfig> slow = Optional.empty();
    Optional<PoisonConfig> poison = Optional.empty();
    Optional<CrosstalkConfig> crosstalk = Optional.empty();
    boolean ok = true;
    if (s.has("slowClient")) {
      SlowClientConfig c = sub(s, "slowClient", SlaKeys.SLOW_CLIENT, "slow-client thresholds and action", this::slowClient);
      ok &= c != null;
      slow = Optional.ofNullable(c);
    }
    if (s.has("poison")) {
      PoisonConfig c = sub(s, "poison", SlaKeys.POISON, "poison thresholds and action", this::poison);
      ok &= c != null;
      poison = Optional.ofNullable(c);
    }
    if (s.has("crosstalk")) {
      CrosstalkConfig c = sub(s, "crosstalk", SlaKeys.CROSSTALK, "read budget, buffers and weights", this::crosstalk);
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
      List<TargetSelector> targets = itemList(s, "targets", SlaKeys.TARGET, "targets", this::target);
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
      RemoteLoadThresholds r = sub(s, "remoteLoad", SlaKeys.REMOTE_LOAD, "cpu, heapPressure, queueLength, gcRate, rtt",
          this::remoteLoad);
      if (r != null) {
        b.remoteLoad(r);
      }
    }
    Boolean react = s.bool("reactToPeerOverload");
    if (react != null) {
      b.reactToPeerOverload(react);
    }
    ActionConfig action = action(s, "action");
    if (action != null) {
      b.action(action);
    }
    return s.construct(b::build);
  }

  private TargetSelector target(Section s) {
    OperationPattern target = requiredPattern(s, "target");
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
          text -> choice(text, PoisonConfig.Resource.class, Map.of("cpu", PoisonConfig.Resource.CPU,
              "gc", PoisonConfig.Resource.GC, "allocation", PoisonConfig.Resource.ALLOCATION)));
      if (r != null) {
        b.resources(r);
      }
    }
    WindowConfig w;
    if ((w = window(s, "baselineWindow", PoisonConfig.DEFAULT_BASELINE_WINDOW)) != null) {
      b.baselineWindow(w);
    }
    if ((w = window(s, "detectionWindow", PoisonConfig.DEFAULT_DETECTION_WINDOW)) != null) {
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
      ProbationConfig p = sub(s, "probation", SlaKeys.PROBATION, "rate and admitAfter", ps -> {
        Double rate = ps.perSecond("rate");
        Duration admit = ps.duration("admitAfter");
        return ps.construct(() -> new ProbationConfig(rate == null ? ProbationConfig.DEFAULT.ratePerSecond() : rate,
            admit == null ? ProbationConfig.DEFAULT.admitAfter() : admit));
      });
      if (p != null) {
        b.probation(p);
      }
    }
    List<ArgumentSignature> sigs = itemList(s, "signatures", SlaKeys.SIGNATURE, "argument signatures", this::signature);
    if (sigs != null) {
      sigs.forEach(b::addSignature);
    }
    if (s.keys().contains("neverFilter")) {
      List<OperationPattern> never = s.scalarList("neverFilter", "operation names or globs", OperationPattern::of);
      if (never != null) {
        never.forEach(b::addNeverFilter);
      }
    }
    ActionConfig action = action(s, "action");
    if (action != null) {
      b.action(action);
    }
    return s.construct(b::build);
  }

  private ArgumentSignature signature(Section s) {
    String name = s.requiredString("name");
    OperationPattern op = requiredPattern(s, "operation");
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
      long[] minMax = sub(s, "receiveBuffer", SlaKeys.RECEIVE_BUFFER, "min and max", rb -> {
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
    List<StreamWeight> weights = itemList(s, "weights", SlaKeys.WEIGHT, "weights", this::weight);
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

  // ---------------------------------------------------------------- actions

  /** The action under {@code key}; null if absent or invalid. */
  private ActionConfig action(Section parent, String key) {
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
        t -> choice(t, SystemExceptionKind.class, Map.of("TRANSIENT", SystemExceptionKind.TRANSIENT,
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
        t -> choice(t, DeferConfig.WhenFull.class, options));
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
        t -> choice(t, AdaptiveLimitConfig.Algorithm.class, Map.of("gradient", AdaptiveLimitConfig.Algorithm.GRADIENT,
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
        gradient = sub(s, "gradient", SlaKeys.GRADIENT, "gradient parameters", g -> {
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
        aimd = sub(s, "aimd", SlaKeys.AIMD, "aimd parameters", a -> {
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
      return new SlaParam(errors.source, keyLine, keyCol, line, col, path, isNull(sc) ? "" : sc.getValue());
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

  // ---------------------------------------------------------------- helpers

  /** Opens a sub-map, reads it, and marks the parent's key failed if anything inside failed. */
  private <T> T sub(Section parent, String key, String sectionName, String what, Function<Section, T> reader) {
    int before = errors.size();
    Section s = parent.section(key, sectionName, what);
    if (s == null) {
      return null;
    }
    T value = reader.apply(s);
    if (errors.size() > before) {
      parent.markFailed(key);
      return null;
    }
    return value;
  }

  /** A list of maps; null if invalid. An absent key gives an empty list. */
  private <T> List<T> itemList(Section parent, String key, String sectionName, String what, Function<Section, T> reader) {
    if (!parent.keys().contains(key)) {
      return List.of();
    }
    List<Node> items = parent.list(key, what);
    if (items == null) {
      return null; // reported by list()
    }
    int before = errors.size();
    List<T> out = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      String path = parent.child(key) + "[" + i + "]";
      Section s = Section.open(errors, items.get(i), path, SlaKeys.keys(sectionName),
          String.join(", ", SlaKeys.keys(sectionName)));
      if (s == null) {
        continue;
      }
      T v = reader.apply(s);
      if (v != null) {
        out.add(v);
      }
    }
    if (errors.size() > before) {
      parent.markFailed(key);
      return null;
    }
    return out;
  }

  /** Maps an enumerated YAML value, suggesting the closest option. */
  private static <E extends Enum<E>> E choice(String text, Class<E> type, Map<String, E> options) {
    E e = options.get(text);
    if (e != null) {
      return e;
    }
    List<String> names = new ArrayList<>(options.keySet());
    names.sort(Comparator.naturalOrder());
    String hint = Suggest.closest(text, names).map(x -> " (did you mean '" + x + "'?)").orElse("");
    throw new IllegalArgumentException("expected one of " + String.join(", ", names) + ", got '" + text + "'" + hint);
  }
}
