package org.irmi.sla;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class SlaParseTest {

  private static Sla orders() {
    return Sla.load(Path.of("examples/orders.yaml"));
  }

  @Test
  void shouldInstallNoIsolationPointWhenSectionIsAbsent() {
    Sla sla = Sla.parse("service: tiny\n", "tiny.yaml");

    assertThat(sla.isolationPoints()).isEqualTo(IsolationPointsConfig.NONE);
    assertThat(sla.monitors()).isEqualTo(MonitorsConfig.ofDefaults());
    assertThat(sla.objectives()).isEmpty();
  }

  @Test
  void shouldUseEveryDefaultWhenPointSectionIsEmpty() {
    Sla sla = Sla.parse("service: s\nisolationPoints:\n  slowClient: {}\n  poison: {}\n  crosstalk: {}\n", "s.yaml");

    assertThat(sla.isolationPoints().slowClient()).contains(SlowClientConfig.ofDefaults());
    assertThat(sla.isolationPoints().poison()).contains(PoisonConfig.ofDefaults());
    assertThat(sla.isolationPoints().crosstalk()).contains(CrosstalkConfig.ofDefaults());
  }

  @Test
  void shouldBindObjectivesWithUnitsWhenExampleIsLoaded() {
    ServiceObjective first = orders().objectives().get(0);

    assertThat(first.operation().glob()).isEqualTo("placeOrder");
    assertThat(first.p99Latency()).contains(Duration.ofMillis(250));
    assertThat(first.minThroughputPerSecond().getAsDouble()).isEqualTo(100.0);
    assertThat(first.maxErrorRatePercent().getAsDouble()).isEqualTo(1.0);
  }

  @Test
  void shouldBindSlowClientThresholdsAndActionChainWhenExampleIsLoaded() {
    SlowClientConfig c = orders().isolationPoints().slowClient().orElseThrow();

    assertThat(c.guards("Secondary-1", "pushEvent")).isTrue();
    assertThat(c.guards("Secondary-1", "get")).isFalse();
    assertThat(c.queueGrowthPerSecond()).isEqualTo(20.0);
    assertThat(c.maxQueueLength()).isEqualTo(500);
    assertThat(c.heapPressurePercent()).isEqualTo(75.0);
    assertThat(c.gcPerSecond()).isEqualTo(4.0);
    assertThat(c.remoteLoad()).isEqualTo(new RemoteLoadThresholds(95, 90, 1000, 10));
    assertThat(c.action().module()).isEqualTo(RerouteConfig.of("irmi/orders.secondary"));
    assertThat(c.action().fallback().orElseThrow().module()).isEqualTo(ShortCircuitConfig.ofDefaults());
  }

  @Test
  void shouldBindPoisonSettingsWhenExampleIsLoaded() {
    PoisonConfig p = orders().isolationPoints().poison().orElseThrow();

    assertThat(p.throughputDropPercent()).isEqualTo(40.0);
    assertThat(p.detectionWindow()).isEqualTo(WindowConfig.of(Duration.ofSeconds(2), 4));
    assertThat(p.minEpisode()).isEqualTo(Duration.ofMillis(500));
    assertThat(p.probation()).isEqualTo(new ProbationConfig(1, Duration.ofSeconds(30)));
    assertThat(p.signatures().get(0).patternBytes().orElseThrow()).containsExactly('B', 'U', 'L', 'K');
    assertThat(p.isProtected("getQuote")).isTrue();
    assertThat(p.isProtected("poison")).isFalse();
    assertThat(p.action().module())
        .isEqualTo(new RejectConfig(SystemExceptionKind.TRANSIENT, OptionalInt.of(0x49524001), "poison request filtered"));
  }

  @Test
  void shouldBindCrosstalkWeightsWhenExampleIsLoaded() throws Exception {
    CrosstalkConfig c = orders().isolationPoints().crosstalk().orElseThrow();

    assertThat(c.baseReadBudgetBytes()).isEqualTo(64 * 1024);
    assertThat(c.maxReceiveBufferBytes()).isEqualTo(4 * 1024 * 1024);
    assertThat(c.weights()).extracting(StreamWeight::kind)
        .containsExactly(StreamWeight.Kind.CLIENT, StreamWeight.Kind.OBJECT_KEY, StreamWeight.Kind.TAG);
    assertThat(c.weights().get(0).cidr().contains(InetAddress.getByName("10.1.200.3"))).isTrue();
    assertThat(c.weights().get(1).objectKeyPattern().matches("POA/MonthlyReports/7")).isTrue();
  }

  @Test
  void shouldShareWeightsPerRuleWhenWeightPerIsRule() {
    Sla sla = Sla.parse("service: s\nisolationPoints:\n  crosstalk:\n    weightPer: rule\n    weights:\n"
        + "      - objectKey: \"*bulk*\"\n        weight: 8\n", "s.yaml");

    CrosstalkConfig c = sla.isolationPoints().crosstalk().orElseThrow();

    assertThat(c.weightPer()).isEqualTo(CrosstalkConfig.WeightPer.RULE);
    assertThat(CrosstalkConfig.ofDefaults().weightPer()).isEqualTo(CrosstalkConfig.WeightPer.CONNECTION);
  }

  @Test
  void shouldBindEveryBuiltInModuleWhenChainedAsFallbacks() {
    Sla sla = Sla.load(Path.of("src/test/resources/valid/every-module.yaml"));
    ActionConfig slow = sla.isolationPoints().slowClient().orElseThrow().action();
    ActionConfig poison = sla.isolationPoints().poison().orElseThrow().action();

    List<ModuleConfig> chain = List.of(slow.module(), slow.fallback().get().module(),
        slow.fallback().get().fallback().get().module(), slow.fallback().get().fallback().get().fallback().get().module(),
        poison.module(), poison.fallback().get().module(), poison.fallback().get().fallback().get().module());

    assertThat(chain).extracting(ModuleConfig::name).containsExactly(
        "reroute", "defer", "throttle", "short-circuit", "adaptive-limit", "degrade", "reject");
    assertThat(chain.get(1)).isEqualTo(new DeferConfig(256, Duration.ofMillis(250), 2, DeferConfig.WhenFull.DROP_OLDEST));
    assertThat(chain.get(2)).isEqualTo(new ThrottleConfig(50, 20));
    assertThat(((AdaptiveLimitConfig) chain.get(4)).aimd()).isEqualTo(new AdaptiveLimitConfig.Aimd(0.75, 2, Duration.ofMillis(800)));
  }

  @Test
  void shouldConvertPerMinuteRatesToPerSecondWhenParsing() {
    Sla sla = Sla.load(Path.of("src/test/resources/valid/every-module.yaml"));

    assertThat(sla.objectives().get(1).minThroughputPerSecond().getAsDouble()).isEqualTo(10.0);
  }

  @Test
  void shouldResolveAnchorsAndAliasesWhenYamlUsesThem() {
    Sla sla = Sla.load(Path.of("src/test/resources/valid/yaml-features.yaml"));

    WindowConfig twenty = WindowConfig.of(Duration.ofSeconds(20), 20);
    assertThat(sla.monitors().localResources()).isEqualTo(twenty);
    assertThat(sla.isolationPoints().poison().orElseThrow().detectionWindow()).isEqualTo(twenty);
    assertThat(sla.monitors().causalPairs().get(0).fanOut()).isEqualTo(2.5);
  }

  @Test
  void shouldKeepFilePositionsWhenPassingThirdPartyParamsThrough() {
    Sla sla = Sla.load(Path.of("src/test/resources/valid/third-party-module.yaml"));
    CustomModuleConfig hedge = (CustomModuleConfig) sla.isolationPoints().slowClient().orElseThrow().action().module();

    SlaParam delay = hedge.params().require("delay");

    assertThat(hedge.name()).isEqualTo("com.acme.hedge");
    assertThat(delay.asDuration()).isEqualTo(Duration.ofMillis(20));
    assertThat(delay.line()).isEqualTo(6);
    assertThat(delay.column()).isEqualTo(14);
    assertThat(hedge.params().require("tuning").asParams().require("jitter").asPercent()).isEqualTo(10.0);
    assertThat(hedge.params().require("replicas").asList()).extracting(SlaParam::asString).containsExactly("a", "b");
  }

  @Test
  void shouldNameFileLineAndColumnWhenThirdPartyModuleRefusesAParam() {
    Sla sla = Sla.load(Path.of("src/test/resources/valid/third-party-module.yaml"));
    SlaParams params = ((CustomModuleConfig) sla.isolationPoints().slowClient().orElseThrow().action().module()).params();

    assertThatThrownBy(() -> params.require("copies").asDuration())
        .isInstanceOf(SlaException.class)
        .hasMessage("third-party-module.yaml:7:15: isolationPoints.slowClient.action.copies: "
            + "'2' has no unit; write a duration such as 2ms or 2s (units: ns, us, ms, s, m, h)");
  }

  @Test
  void shouldSuggestAKeyWhenThirdPartyModuleFindsAMisspeltParam() {
    Sla sla = Sla.load(Path.of("src/test/resources/valid/third-party-module.yaml"));
    SlaParams params = ((CustomModuleConfig) sla.isolationPoints().slowClient().orElseThrow().action().module()).params();

    SlaException e = catchThrowableOfType(SlaException.class,
        () -> params.allowOnly("delay", "copies", "replica", "tuning"));

    assertThat(e.errors()).extracting(SlaError::toString).containsExactly(
        "third-party-module.yaml:8:7: unknown key 'replicas' in isolationPoints.slowClient.action (did you mean 'replica'?)");
  }

  @Test
  void shouldReportMissingFileWhenLoadingAPathThatDoesNotExist() {
    SlaException e = catchThrowableOfType(SlaException.class, () -> Sla.load(Path.of("does-not-exist.yaml")));

    assertThat(e.errors()).singleElement().satisfies(err -> {
      assertThat(err.source()).isEqualTo("does-not-exist.yaml");
      assertThat(err.message()).startsWith("file not found");
    });
  }
}
