package org.irmi.sla.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class UnitsTest {

  @Test
  void shouldParseEveryDurationUnitWhenAmountIsWhole() {
    assertThat(Units.parseDuration("500ns")).isEqualTo(Duration.ofNanos(500));
    assertThat(Units.parseDuration("250us")).isEqualTo(Duration.ofNanos(250_000));
    assertThat(Units.parseDuration("250ms")).isEqualTo(Duration.ofMillis(250));
    assertThat(Units.parseDuration("5s")).isEqualTo(Duration.ofSeconds(5));
    assertThat(Units.parseDuration("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(Units.parseDuration("1h")).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void shouldFormatDurationInLargestExactUnitWhenRendering() {
    assertThat(Units.formatDuration(Duration.ofMillis(1500))).isEqualTo("1500ms");
    assertThat(Units.formatDuration(Duration.ofSeconds(120))).isEqualTo("2m");
    assertThat(Units.formatDuration(Duration.ZERO)).isEqualTo("0ms");
    assertThat(Units.formatDuration(Duration.ofNanos(1001))).isEqualTo("1001ns");
  }

  @Test
  void shouldRefuseBareNumberWhenUnitIsRequired() {
    assertThatThrownBy(() -> Units.parseDuration("30")).hasMessageStartingWith("'30' has no unit");
    assertThatThrownBy(() -> Units.parseBytes("4096")).hasMessageStartingWith("'4096' has no unit");
    assertThatThrownBy(() -> Units.parsePercent("80")).hasMessageStartingWith("'80' has no unit");
    assertThatThrownBy(() -> Units.parsePerSecond("100")).hasMessageStartingWith("'100' has no unit");
  }

  @Test
  void shouldParseBinarySizesWhenUnitIsGiven() {
    assertThat(Units.parseBytes("512B")).isEqualTo(512);
    assertThat(Units.parseBytes("64KiB")).isEqualTo(65_536);
    assertThat(Units.parseBytes("8MiB")).isEqualTo(8L << 20);
    assertThat(Units.parseBytes("1GiB")).isEqualTo(1L << 30);
    assertThat(Units.formatBytes(3L << 20)).isEqualTo("3MiB");
    assertThat(Units.formatBytes(1500)).isEqualTo("1500B");
  }

  @Test
  void shouldRefuseSizeWhenItOverflowsALong() {
    assertThatThrownBy(() -> Units.parseBytes("9000000000GiB")).hasMessageContaining("too large");
  }

  @Test
  void shouldParsePercentagesAndRatesWhenUnitsAreGiven() {
    assertThat(Units.parsePercent("12.5%")).isEqualTo(12.5);
    assertThat(Units.parsePerSecond("100/s")).isEqualTo(100.0);
    assertThat(Units.parsePerSecond("120/m")).isEqualTo(2.0);
    assertThat(Units.parsePerSecond("7200/h")).isEqualTo(2.0);
    assertThat(Units.formatPercent(80)).isEqualTo("80%");
    assertThat(Units.formatPerSecond(0.25)).isEqualTo("0.25/s");
  }

  @Test
  void shouldRoundTripRatesWhenPerMinuteValueIsNotWholePerSecond() {
    double perSecond = Units.parsePerSecond("100/m");

    assertThat(Units.parsePerSecond(Units.formatPerSecond(perSecond))).isEqualTo(perSecond);
  }
}
