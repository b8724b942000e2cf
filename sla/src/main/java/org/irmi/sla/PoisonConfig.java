package org.irmi.sla;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.irmi.sla.internal.Check;

/**
 * The poison-message isolation point (acts on the reader thread after the request header is parsed).
 * YAML section {@code isolationPoints.poison}.
 *
 * <p>A <em>rising edge</em> is the detection window's throughput falling {@code throughputDrop} or
 * more below the baseline window's while one of {@code resources} rises {@code resourceRise} or more
 * above its baseline; the <em>falling edge</em> is recovery. An episode shorter than
 * {@code minEpisode} is ignored. With {@code attribution}, the per-request CPU and allocation name
 * the offender in the first episode; without it, a type is a suspect once it has been in the set
 * difference S1 - S2 of {@code confirmEpisodes} episodes. Suspects are filtered with {@code action},
 * except operations matching {@code neverFilter}. After {@code coolDown} a filtered type goes on
 * {@link ProbationConfig probation}.
 *
 * @param enabled whether the point acts (default true)
 * @param throughputDropPercent drop below baseline that marks a rising edge, 1% to 99% (default 30%)
 * @param resourceRisePercent rise above baseline that marks a rising edge, 1% to 10000% (default 50%)
 * @param resources which resources count (default cpu, gc, allocation); not empty, no repeats
 * @param baselineWindow window of the steady-state baseline (default 60s in 60 buckets)
 * @param detectionWindow window compared against the baseline (default 5s in 5); shorter than the baseline
 * @param minEpisode shortest episode acted on, 10ms to 10m (default 1s)
 * @param attribution whether per-request cost names the offender (default true)
 * @param confirmEpisodes episodes a suspect must appear in without attribution, 1 to 100 (default 2)
 * @param coolDown time a type stays filtered before probation, 1s to 24h (default 60s)
 * @param probation the probation trickle
 * @param signatures argument signatures (may be empty)
 * @param neverFilter operations that are never filtered, whatever the evidence
 * @param action what to do with a suspect's requests (default: reject TRANSIENT)
 * @param naming how evidence names an offender; not SLA keys, set only through {@link #custom()}
 * @param maxCoolDown longest cool-down: each failed probation doubles the cool-down up to it, 1s to 16 days,
 *     at least {@code coolDown} (default the larger of 10m and 16 times {@code coolDown}); not an SLA key
 * @param advertiseOverload how long after an episode or a new filter the node advertises overload to its
 *     callers in its load report, 0 to 1h (default 5s); not an SLA key
 */
public record PoisonConfig(
    boolean enabled,
    double throughputDropPercent,
    double resourceRisePercent,
    List<Resource> resources,
    WindowConfig baselineWindow,
    WindowConfig detectionWindow,
    Duration minEpisode,
    boolean attribution,
    int confirmEpisodes,
    Duration coolDown,
    ProbationConfig probation,
    List<ArgumentSignature> signatures,
    List<OperationPattern> neverFilter,
    ActionConfig action,
    Naming naming,
    Duration maxCoolDown,
    Duration advertiseOverload) {

  /** Resources whose rise marks a rising edge. YAML values: {@code cpu}, {@code gc}, {@code allocation}. */
  public enum Resource { CPU, GC, ALLOCATION }

  public static final double DEFAULT_THROUGHPUT_DROP_PERCENT = 30;
  public static final double DEFAULT_RESOURCE_RISE_PERCENT = 50;
  public static final List<Resource> DEFAULT_RESOURCES = List.of(Resource.CPU, Resource.GC, Resource.ALLOCATION);
  public static final WindowConfig DEFAULT_BASELINE_WINDOW = WindowConfig.of(Duration.ofSeconds(60), 60);
  public static final WindowConfig DEFAULT_DETECTION_WINDOW = WindowConfig.of(Duration.ofSeconds(5), 5);
  public static final Duration DEFAULT_MIN_EPISODE = Duration.ofSeconds(1);
  public static final boolean DEFAULT_ATTRIBUTION = true;
  public static final int DEFAULT_CONFIRM_EPISODES = 2;
  public static final Duration DEFAULT_COOL_DOWN = Duration.ofSeconds(60);
  public static final Duration DEFAULT_MAX_COOL_DOWN = Duration.ofMinutes(10);
  /** Upper bound of {@code maxCoolDown}: 16 times the longest {@code coolDown}, so the default always fits. */
  public static final Duration MAX_MAX_COOL_DOWN = Duration.ofHours(24 * 16);
  public static final Duration DEFAULT_ADVERTISE_OVERLOAD = Duration.ofSeconds(5);

  /**
   * How the poison point names an offender; these thresholds are not SLA keys. By cost (first episode,
   * with {@code attribution}): a type is named when its share of the episode's CPU or allocation is at
   * least {@code minCostShare} and its cost per request at least {@code costFactor} times the baseline's.
   * By set difference: the one suspect left after {@code confirmEpisodes} episodes is named only if it is
   * uncommon (at most {@code maxCommonShare} of the baseline's requests) and, when costs are known,
   * costlier than the baseline.
   *
   * @param costFactor cost per request over the baseline's that counts as costly, 1.5 to 1000000 (default 10)
   * @param minCostShare least share of the episode's cost, 0.1 to 1 (default 0.5)
   * @param maxCommonShare largest share of baseline requests a named type may have had, 0 to 1 (default 0.05)
   * @param minBaselineRequests requests a baseline needs before its cost per request is trusted, 1 to
   *     1000000000 (default 20)
   */
  public record Naming(double costFactor, double minCostShare, double maxCommonShare, int minBaselineRequests) {

    public static final Naming DEFAULT = new Naming(10.0, 0.5, 0.05, 20);

    /** Validates every field. */
    public Naming {
      Check c = new Check();
      c.range("costFactor", costFactor, 1.5, 1e6);
      c.range("minCostShare", minCostShare, 0.1, 1.0);
      c.range("maxCommonShare", maxCommonShare, 0.0, 1.0);
      c.range("minBaselineRequests", minBaselineRequests, 1, 1_000_000_000);
      c.throwIfAny();
    }
  }

  /** Validates every field and their consistency. */
  public PoisonConfig {
    resources = List.copyOf(resources);
    Objects.requireNonNull(baselineWindow, "baselineWindow");
    Objects.requireNonNull(detectionWindow, "detectionWindow");
    Objects.requireNonNull(probation, "probation");
    signatures = List.copyOf(signatures);
    neverFilter = List.copyOf(neverFilter);
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(naming, "naming");
    Check c = new Check();
    c.percent("throughputDrop", throughputDropPercent, 1, 99); // a 100% drop (throughput below zero) can never happen
    c.percent("resourceRise", resourceRisePercent, 1, 10_000);
    if (resources.isEmpty()) {
      c.fail("resources", "must list at least one of cpu, gc, allocation");
    } else if (new HashSet<>(resources).size() != resources.size()) {
      c.fail("resources", "lists a resource twice");
    }
    if (detectionWindow.length().compareTo(baselineWindow.length()) >= 0) {
      c.fail("detectionWindow.length", "must be shorter than baselineWindow.length ("
          + org.irmi.sla.internal.Units.formatDuration(baselineWindow.length()) + "), was "
          + org.irmi.sla.internal.Units.formatDuration(detectionWindow.length()));
    }
    c.duration("minEpisode", minEpisode, Duration.ofMillis(10), Duration.ofMinutes(10));
    c.range("confirmEpisodes", confirmEpisodes, 1, 100);
    c.duration("coolDown", coolDown, Duration.ofSeconds(1), Duration.ofHours(24));
    c.duration("maxCoolDown", maxCoolDown, Duration.ofSeconds(1), MAX_MAX_COOL_DOWN);
    c.durationAtLeast("maxCoolDown", maxCoolDown, "coolDown", coolDown);
    c.duration("advertiseOverload", advertiseOverload, Duration.ZERO, Duration.ofHours(1));
    Set<String> names = new HashSet<>();
    for (int i = 0; i < signatures.size(); i++) {
      if (!names.add(signatures.get(i).name())) {
        c.fail("signatures[" + i + "].name", "'" + signatures.get(i).name() + "' is used by an earlier signature");
      }
    }
    c.throwIfAny();
  }

  /** All defaults. */
  public static PoisonConfig ofDefaults() {
    return custom().build();
  }

  /** A builder starting from the defaults. */
  public static Builder custom() {
    return new Builder();
  }

  /** Whether {@code operation} is protected by {@code neverFilter}. */
  public boolean isProtected(String operation) {
    for (OperationPattern p : neverFilter) {
      if (p.matches(operation)) {
        return true;
      }
    }
    return false;
  }

  /** Builder; {@link #build()} validates. */
  public static final class Builder {
    private boolean enabled = true;
    private double throughputDropPercent = DEFAULT_THROUGHPUT_DROP_PERCENT;
    private double resourceRisePercent = DEFAULT_RESOURCE_RISE_PERCENT;
    private List<Resource> resources = DEFAULT_RESOURCES;
    private WindowConfig baselineWindow = DEFAULT_BASELINE_WINDOW;
    private WindowConfig detectionWindow = DEFAULT_DETECTION_WINDOW;
    private Duration minEpisode = DEFAULT_MIN_EPISODE;
    private boolean attribution = DEFAULT_ATTRIBUTION;
    private int confirmEpisodes = DEFAULT_CONFIRM_EPISODES;
    private Duration coolDown = DEFAULT_COOL_DOWN;
    private ProbationConfig probation = ProbationConfig.DEFAULT;
    private final List<ArgumentSignature> signatures = new ArrayList<>();
    private final List<OperationPattern> neverFilter = new ArrayList<>();
    private ActionConfig action = ActionConfig.DEFAULT;
    private Naming naming = Naming.DEFAULT;
    private Duration maxCoolDown;
    private Duration advertiseOverload = DEFAULT_ADVERTISE_OVERLOAD;

    private Builder() {}

    public Builder enabled(boolean v) { enabled = v; return this; }
    public Builder throughputDropPercent(double v) { throughputDropPercent = v; return this; }
    public Builder resourceRisePercent(double v) { resourceRisePercent = v; return this; }
    public Builder resources(List<Resource> v) { resources = new ArrayList<>(v); return this; }
    public Builder baselineWindow(WindowConfig v) { baselineWindow = v; return this; }
    public Builder detectionWindow(WindowConfig v) { detectionWindow = v; return this; }
    public Builder minEpisode(Duration v) { minEpisode = v; return this; }
    public Builder attribution(boolean v) { attribution = v; return this; }
    public Builder confirmEpisodes(int v) { confirmEpisodes = v; return this; }
    public Builder coolDown(Duration v) { coolDown = v; return this; }
    public Builder probation(ProbationConfig v) { probation = v; return this; }
    public Builder addSignature(ArgumentSignature v) { signatures.add(v); return this; }
    public Builder addNeverFilter(OperationPattern v) { neverFilter.add(v); return this; }
    public Builder action(ActionConfig v) { action = v; return this; }
    public Builder naming(Naming v) { naming = v; return this; }
    /** The longest cool-down; unless set, the larger of 10m and 16 times {@code coolDown}. */
    public Builder maxCoolDown(Duration v) { maxCoolDown = v; return this; }
    public Builder advertiseOverload(Duration v) { advertiseOverload = v; return this; }

    public PoisonConfig build() {
      return new PoisonConfig(enabled, throughputDropPercent, resourceRisePercent, resources, baselineWindow,
          detectionWindow, minEpisode, attribution, confirmEpisodes, coolDown, probation, signatures, neverFilter, action,
          naming, maxCoolDown != null ? maxCoolDown : defaultMaxCoolDown(coolDown), advertiseOverload);
    }

    private static Duration defaultMaxCoolDown(Duration coolDown) {
      if (coolDown == null || coolDown.compareTo(Duration.ofHours(24)) > 0) {
        return DEFAULT_MAX_COOL_DOWN; // coolDown's own check reports it
      }
      Duration sixteen = coolDown.multipliedBy(16);
      return sixteen.compareTo(DEFAULT_MAX_COOL_DOWN) > 0 ? sixteen : DEFAULT_MAX_COOL_DOWN;
    }
  }
}
