package org.irmi.sla;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Which windows the monitors keep and which incoming/outgoing operations are causally connected.
 * YAML section {@code monitors}.
 *
 * @param requestRates window of the per-causal-pair request rates
 * @param localResources window of local CPU, GC, heap and queue samples
 * @param remoteResources window of each remote host's load reports
 * @param latency window of the latency histograms used for the objectives' p99
 * @param perRequestCost whether CPU time and bytes allocated are measured per request
 * @param causalPairs the causal pairs (may be empty)
 */
public record MonitorsConfig(
    WindowConfig requestRates,
    WindowConfig localResources,
    WindowConfig remoteResources,
    WindowConfig latency,
    boolean perRequestCost,
    List<CausalPair> causalPairs) {

  public static final WindowConfig DEFAULT_REQUEST_RATES = WindowConfig.of(Duration.ofSeconds(10), 10);
  public static final WindowConfig DEFAULT_LOCAL_RESOURCES = WindowConfig.of(Duration.ofSeconds(10), 10);
  public static final WindowConfig DEFAULT_REMOTE_RESOURCES = WindowConfig.of(Duration.ofSeconds(30), 10);
  public static final WindowConfig DEFAULT_LATENCY = WindowConfig.of(Duration.ofSeconds(60), 12);
  public static final boolean DEFAULT_PER_REQUEST_COST = true;

  /** Null-checks and copies; causal pair names are unique. */
  public MonitorsConfig {
    Objects.requireNonNull(requestRates, "requestRates");
    Objects.requireNonNull(localResources, "localResources");
    Objects.requireNonNull(remoteResources, "remoteResources");
    Objects.requireNonNull(latency, "latency");
    causalPairs = List.copyOf(causalPairs);
    org.irmi.sla.internal.Check c = new org.irmi.sla.internal.Check();
    java.util.Map<String, Integer> first = new java.util.HashMap<>();
    for (int i = 0; i < causalPairs.size(); i++) {
      Integer earlier = first.putIfAbsent(causalPairs.get(i).name(), i);
      if (earlier != null) {
        c.fail("causalPairs[" + i + "]", "repeats causal pair '" + causalPairs.get(i).name() + "' of causalPairs["
            + earlier + "]; list each incoming, target and outgoing combination once");
      }
    }
    c.throwIfAny();
  }

  /** All defaults, no causal pairs. */
  public static MonitorsConfig ofDefaults() {
    return custom().build();
  }

  /** A builder starting from the defaults. */
  public static Builder custom() {
    return new Builder();
  }

  /** Builder; {@link #build()} validates. */
  public static final class Builder {
    private WindowConfig requestRates = DEFAULT_REQUEST_RATES;
    private WindowConfig localResources = DEFAULT_LOCAL_RESOURCES;
    private WindowConfig remoteResources = DEFAULT_REMOTE_RESOURCES;
    private WindowConfig latency = DEFAULT_LATENCY;
    private boolean perRequestCost = DEFAULT_PER_REQUEST_COST;
    private final List<CausalPair> causalPairs = new ArrayList<>();

    private Builder() {}

    public Builder requestRates(WindowConfig w) { this.requestRates = w; return this; }
    public Builder localResources(WindowConfig w) { this.localResources = w; return this; }
    public Builder remoteResources(WindowConfig w) { this.remoteResources = w; return this; }
    public Builder latency(WindowConfig w) { this.latency = w; return this; }
    public Builder perRequestCost(boolean on) { this.perRequestCost = on; return this; }
    public Builder addCausalPair(CausalPair p) { this.causalPairs.add(p); return this; }

    public MonitorsConfig build() {
      return new MonitorsConfig(requestRates, localResources, remoteResources, latency, perRequestCost, causalPairs);
    }
  }
}
