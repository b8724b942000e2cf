package org.irmi.sla;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The config objects validate in code as strictly as the loader does (one source of the bounds). */
class ConfigValidationTest {

  @Test
  void shouldReportEveryViolationWithItsKeyWhenBuilderHasSeveral() {
    SlaConfigException e = catchThrowableOfType(SlaConfigException.class, () -> PoisonConfig.custom()
        .throughputDropPercent(0)
        .coolDown(Duration.ofMillis(10))
        .confirmEpisodes(0)
        .build());

    assertThat(e.violations()).extracting(SlaConfigException.Violation::key)
        .containsExactly("throughputDrop", "confirmEpisodes", "coolDown");
    assertThat(e.getMessage()).contains("coolDown: must be at least 1s, was 10ms");
  }

  @Test
  void shouldRefuseWindowWhenBucketsAreShorterThanAMillisecond() {
    assertThatThrownBy(() -> WindowConfig.of(Duration.ofMillis(5), 10))
        .isInstanceOf(SlaConfigException.class)
        .hasMessage("buckets: 10 buckets over 5ms are shorter than 1ms each; use at most 5 buckets");
  }

  @Test
  void shouldAcceptWindowOfOneBucketWhenLengthIsOneMillisecond() {
    WindowConfig w = WindowConfig.of(Duration.ofMillis(1), 1);

    assertThat(w.bucketLength()).isEqualTo(Duration.ofMillis(1));
  }

  @Test
  void shouldUseTenSecondsInTenBucketsWhenWindowIsDefault() {
    WindowConfig w = WindowConfig.ofDefaults();

    assertThat(w.length()).isEqualTo(Duration.ofSeconds(10));
    assertThat(w.buckets()).isEqualTo(10);
    assertThat(w.bucketNanos()).isEqualTo(1_000_000_000L);
  }

  @Test
  void shouldCoverAWholeNumberOfBucketsWhenLengthDoesNotDivide() {
    WindowConfig w = WindowConfig.of(Duration.ofMillis(1001), 7);

    assertThat(w.bucketNanos()).isEqualTo(143_000_000L);
    assertThat(w.windowNanos()).isEqualTo(1_001_000_000L);
  }

  @Test
  void shouldNameTheKeyWhenWindowBucketsOrLengthAreOutOfRange() {
    assertThatThrownBy(() -> WindowConfig.of(Duration.ofSeconds(10), 0)).hasMessage("buckets: must be at least 1, was 0");
    assertThatThrownBy(() -> WindowConfig.of(Duration.ofSeconds(10), 3601)).hasMessage("buckets: must be at most 3600, was 3601");
    assertThatThrownBy(() -> WindowConfig.of(Duration.ofHours(25), 10)).hasMessage("length: must be at most 24h, was 25h");
  }

  @Test
  void shouldRefuseMaxCoolDownWhenShorterThanCoolDown() {
    assertThatThrownBy(() -> PoisonConfig.custom().coolDown(Duration.ofSeconds(30)).maxCoolDown(Duration.ofSeconds(10)).build())
        .hasMessage("maxCoolDown: must be at least coolDown (30s), was 10s");
  }

  @Test
  void shouldDefaultMaxCoolDownToSixteenCoolDownsWithinItsBounds() {
    assertThat(PoisonConfig.ofDefaults().maxCoolDown()).isEqualTo(Duration.ofMinutes(16));
    assertThat(PoisonConfig.custom().coolDown(Duration.ofSeconds(1)).build().maxCoolDown()).isEqualTo(Duration.ofMinutes(10));
    assertThat(PoisonConfig.custom().coolDown(Duration.ofHours(24)).build().maxCoolDown()).isEqualTo(Duration.ofDays(16));
  }

  @Test
  void shouldDefaultQueueLowToATenthOfMaxQueueLength() {
    assertThat(SlowClientConfig.custom().maxQueueLength(300).build().queueLow()).isEqualTo(30.0);
    assertThatThrownBy(() -> SlowClientConfig.custom().maxQueueLength(300).queueLow(300).build())
        .hasMessage("queueLow: must be below maxQueueLength (300), was 300");
  }

  @Test
  void shouldRefuseReadBudgetWhenMinExceedsMax() {
    assertThatThrownBy(() -> CrosstalkConfig.custom().minReadBudgetBytes(8192).maxReadBudgetBytes(4096).build())
        .hasMessage("maxReadBudget: must be at least minReadBudget (8KiB), was 4KiB");
  }

  @Test
  void shouldRefuseReceiveBufferWhenMinExceedsMax() {
    assertThatThrownBy(() -> CrosstalkConfig.custom().minReceiveBufferBytes(2 << 20).maxReceiveBufferBytes(1 << 20).build())
        .hasMessage("receiveBuffer.max: must be at least receiveBuffer.min (2MiB), was 1MiB");
  }

  @Test
  void shouldRefuseDuplicateSignatureNamesWhenBuildingPoisonConfig() {
    ArgumentSignature a = new ArgumentSignature("s", OperationPattern.of("buy"), 0, 4, java.util.Optional.empty());

    assertThatThrownBy(() -> PoisonConfig.custom().addSignature(a).addSignature(a).build())
        .hasMessage("signatures[1].name: 's' is used by an earlier signature");
  }

  @Test
  void shouldRefuseUnqualifiedNameWhenBuildingCustomModule() {
    assertThatThrownBy(() -> new CustomModuleConfig("hedge", SlaParams.empty()))
        .hasMessage("module: third-party module name 'hedge' must be namespaced, e.g. com.acme.hedge");
  }

  @Test
  void shouldRefuseInitialLimitOutsideBoundsWhenBuildingAdaptiveLimit() {
    assertThatThrownBy(() -> new AdaptiveLimitConfig(AdaptiveLimitConfig.Algorithm.AIMD, 5, 10, 20,
            AdaptiveLimitConfig.Gradient.DEFAULT, AdaptiveLimitConfig.Aimd.DEFAULT))
        .hasMessage("initialLimit: must be between minLimit (10) and maxLimit (20), was 5");
  }

  @Test
  void shouldMatchEveryCallWhenSlowClientUsesDefaultTargets() {
    SlowClientConfig c = SlowClientConfig.ofDefaults();

    assertThat(c.targets()).isEqualTo(List.of(TargetSelector.ALL));
    assertThat(c.guards("anything", "op")).isTrue();
    assertThat(c.action()).isEqualTo(ActionConfig.DEFAULT);
  }
}
