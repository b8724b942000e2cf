package org.irmi.sla;

/**
 * The parameters of one adaptation module, as the SLA's {@code action} gives them. Built-in modules
 * have typed configs; a third-party module (a namespaced name such as {@code com.acme.hedge}) gets a
 * {@link CustomModuleConfig} with its raw parameters and their file positions.
 */
public sealed interface ModuleConfig
    permits RejectConfig, ShortCircuitConfig, RerouteConfig, DeferConfig, DegradeConfig, ThrottleConfig,
        AdaptiveLimitConfig, CustomModuleConfig {

  /** Built-in module names, as written in the SLA. */
  String REJECT = "reject";
  String SHORT_CIRCUIT = "short-circuit";
  String REROUTE = "reroute";
  String DEFER = "defer";
  String DEGRADE = "degrade";
  String THROTTLE = "throttle";
  String ADAPTIVE_LIMIT = "adaptive-limit";

  /** Every built-in module name, in the order the reference lists them. */
  java.util.List<String> BUILT_IN =
      java.util.List.of(REJECT, SHORT_CIRCUIT, REROUTE, DEFER, DEGRADE, THROTTLE, ADAPTIVE_LIMIT);

  /** The module name as written in the SLA ({@code reject}, ..., or a third-party name). */
  String name();
}
