package org.irmi.isolation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The typed getters read parameters written with the SLA's units, and name the parameter in every error. */
class ModuleSettingsTest {

    private static final Duration MS = Duration.ofMillis(1);
    private static final Duration HOUR = Duration.ofHours(1);

    private final ModuleSettings settings = ModuleSettings.of("acme");

    @Test
    void shouldReadDurationsWhenWrittenWithTheSlaUnits() {
        assertThat(settings.with("d", "250ms").nanos("d", MS, MS, HOUR)).isEqualTo(250_000_000L);
        assertThat(settings.with("d", "5s").nanos("d", MS, MS, HOUR)).isEqualTo(5_000_000_000L);
        assertThat(settings.with("d", Duration.ofSeconds(2)).nanos("d", MS, MS, HOUR)).isEqualTo(2_000_000_000L);
        assertThat(settings.nanos("d", Duration.ofMillis(7), MS, HOUR)).isEqualTo(7_000_000L);
    }

    @Test
    void shouldReadCountsAndSizesWhenWholeOrWithBinaryUnits() {
        assertThat(settings.with("n", "1000").integer("n", 1, 0, Long.MAX_VALUE)).isEqualTo(1000);
        assertThat(settings.with("n", 12).integer("n", 1, 0, Long.MAX_VALUE)).isEqualTo(12);
        assertThat(settings.with("n", "64KiB").integer("n", 1, 0, Long.MAX_VALUE)).isEqualTo(65_536);
    }

    @Test
    void shouldReadDecimalsWhenBareOrPercent() {
        assertThat(settings.with("x", "5").decimal("x", 1, 0, 10)).isEqualTo(5.0);
        assertThat(settings.with("x", "80%").decimal("x", 1, 0, 1)).isEqualTo(0.8);
        assertThat(settings.with("x", 0.25).decimal("x", 1, 0, 1)).isEqualTo(0.25);
    }

    @Test
    void shouldNameTheParameterWhenAValueBreaksTheUnitRules() {
        assertThatThrownBy(() -> settings.with("d", "1.5s").nanos("d", MS, MS, HOUR))
                .hasMessageStartingWith("adaptation module `acme`: parameter `d`: ")
                .hasMessageContaining("whole numbers");
        assertThatThrownBy(() -> settings.with("d", "30").nanos("d", MS, MS, HOUR))
                .hasMessageContaining("has no unit");
        assertThatThrownBy(() -> settings.with("n", "64KB").integer("n", 1, 0, Long.MAX_VALUE))
                .hasMessageStartingWith("adaptation module `acme`: parameter `n`: ")
                .hasMessageContaining("write 64KiB");
        assertThatThrownBy(() -> settings.with("x", "lots").decimal("x", 1, 0, 10))
                .hasMessage("adaptation module `acme`: parameter `x`: expected a number, got `lots`");
        assertThatThrownBy(() -> settings.with("d", 30).nanos("d", MS, MS, HOUR))
                .hasMessageContaining("needs a unit");
    }

    @Test
    void shouldRefuseValuesWhenOutOfBounds() {
        assertThatThrownBy(() -> settings.with("d", "2h").nanos("d", MS, MS, HOUR))
                .hasMessageStartingWith("adaptation module `acme`: parameter `d` must be between");
        assertThatThrownBy(() -> settings.with("n", "0").integer("n", 1, 1, 10))
                .hasMessage("adaptation module `acme`: parameter `n` must be between 1 and 10, was 0");
    }
}
