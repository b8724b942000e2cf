package org.irmi.monitors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class WindowConfigTest {

    @Test
    void shouldUseTenSecondsInTenBucketsWhenDefault() {
        WindowConfig c = WindowConfig.ofDefaults();
        assertThat(c.windowLength()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.buckets()).isEqualTo(10);
        assertThat(c.bucketNanos()).isEqualTo(1_000_000_000L);
    }

    @Test
    void shouldNameTheFieldWhenBucketsOutOfRange() {
        assertThatThrownBy(() -> WindowConfig.custom().buckets(0)).hasMessage("buckets must be between 1 and 3600, was 0");
        assertThatThrownBy(() -> WindowConfig.custom().buckets(3601)).hasMessageContaining("was 3601");
    }

    @Test
    void shouldRefuseWhenBucketShorterThanOneMillisecond() {
        assertThatThrownBy(() -> WindowConfig.of(Duration.ofMillis(10), 20))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("windowLength / buckets must be at least 1ms").hasMessageContaining("use fewer buckets");
        assertThatThrownBy(() -> WindowConfig.custom().windowLength(Duration.ofNanos(10)))
                .hasMessageContaining("windowLength must be at least 1ms");
    }
}
