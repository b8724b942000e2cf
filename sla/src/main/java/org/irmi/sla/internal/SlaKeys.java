package org.irmi.sla.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one list of the keys each SLA section accepts. The binder refuses every other key, and a test
 * checks that {@code docs/sla.schema.json} has exactly these sections ({@code $defs}) and keys
 * ({@code properties}), so the parser and the schema cannot drift apart.
 */
public final class SlaKeys {

  public static final String ROOT = "root";
  public static final String OBJECTIVE = "objective";
  public static final String MONITORS = "monitors";
  public static final String WINDOW = "window";
  public static final String CAUSAL_PAIR = "causalPair";
  public static final String ISOLATION_POINTS = "isolationPoints";
  public static final String SLOW_CLIENT = "slowClient";
  public static final String TARGET = "target";
  public static final String REMOTE_LOAD = "remoteLoad";
  public static final String POISON = "poison";
  public static final String PROBATION = "probation";
  public static final String SIGNATURE = "signature";
  public static final String CROSSTALK = "crosstalk";
  public static final String RECEIVE_BUFFER = "receiveBuffer";
  public static final String WEIGHT = "weight";
  public static final String GRADIENT = "gradient";
  public static final String AIMD = "aimd";
  /** Prefix of the per-module action sections: {@code action.reject}, ..., {@code action.custom}. */
  public static final String ACTION_PREFIX = "action.";
  /** Section name of a third-party module's action (its other keys are free). */
  public static final String ACTION_CUSTOM = "action.custom";

  /** Section name to accepted keys, in the order the renderer writes them. */
  public static final Map<String, List<String>> SECTIONS;

  static {
    Map<String, List<String>> m = new LinkedHashMap<>();
    m.put(ROOT, List.of("service", "objectives", "monitors", "isolationPoints"));
    m.put(OBJECTIVE, List.of("operation", "p99Latency", "minThroughput", "maxErrorRate"));
    m.put(MONITORS, List.of("requestRates", "localResources", "remoteResources", "latency", "perRequestCost", "causalPairs"));
    m.put(WINDOW, List.of("length", "buckets"));
    m.put(CAUSAL_PAIR, List.of("incoming", "target", "outgoing", "fanout"));
    m.put(ISOLATION_POINTS, List.of("slowClient", "poison", "crosstalk"));
    m.put(SLOW_CLIENT, List.of("enabled", "targets", "queueGrowth", "maxQueueLength", "queueGauge", "heapPressure",
        "gcRate", "cpu", "remoteLoad", "reactToPeerOverload", "action"));
    m.put(TARGET, List.of("target", "operations"));
    m.put(REMOTE_LOAD, List.of("cpu", "heapPressure", "queueLength", "gcRate", "rtt"));
    m.put(POISON, List.of("enabled", "throughputDrop", "resourceRise", "resources", "baselineWindow", "detectionWindow",
        "minEpisode", "attribution", "confirmEpisodes", "coolDown", "probation", "signatures", "neverFilter", "action"));
    m.put(PROBATION, List.of("rate", "admitAfter"));
    m.put(SIGNATURE, List.of("name", "operation", "offset", "length", "pattern"));
    m.put(CROSSTALK, List.of("enabled", "baseReadBudget", "receiveBuffer", "defaultWeight", "idleAfter", "weightPer", "weights"));
    m.put(RECEIVE_BUFFER, List.of("min", "max"));
    m.put(WEIGHT, List.of("client", "objectKey", "tag", "weight"));
    m.put(ACTION_PREFIX + "reject", List.of("module", "kind", "minorCode", "reason", "fallback"));
    m.put(ACTION_PREFIX + "short-circuit", List.of("module", "result", "dropOneways", "fallback"));
    m.put(ACTION_PREFIX + "reroute", List.of("module", "replicas", "namingService", "refresh", "fallback"));
    m.put(ACTION_PREFIX + "defer", List.of("module", "capacity", "retryDelay", "maxRetries", "whenFull", "fallback"));
    m.put(ACTION_PREFIX + "degrade", List.of("module", "reducer", "fallback"));
    m.put(ACTION_PREFIX + "throttle", List.of("module", "rate", "burst", "fallback"));
    m.put(ACTION_PREFIX + "adaptive-limit", List.of("module", "algorithm", "initialLimit", "minLimit", "maxLimit",
        "gradient", "aimd", "fallback"));
    m.put(GRADIENT, List.of("smoothing", "rttTolerance", "longWindow", "queueSize"));
    m.put(AIMD, List.of("backoffRatio", "increase", "timeout"));
    m.put(ACTION_CUSTOM, List.of("module", "fallback"));
    SECTIONS = java.util.Collections.unmodifiableMap(m);
  }

  /** Built-in module names. */
  public static final List<String> BUILT_IN_MODULES = org.irmi.sla.ModuleConfig.BUILT_IN;

  private SlaKeys() {}

  /** The accepted keys of a section. */
  public static List<String> keys(String section) {
    List<String> k = SECTIONS.get(section);
    if (k == null) {
      throw new IllegalArgumentException("no SLA section " + section);
    }
    return k;
  }
}
