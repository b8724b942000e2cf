package org.irmi.orb.internal.rmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;

import org.junit.jupiter.api.Test;

class ShortCircuitResultTest {

    @Test
    void shouldConvertTheSlaTextToThePrimitiveReturnType() {
        assertThat(ShortCircuitResult.of(long.class, "0")).isEqualTo(0L);
        assertThat(ShortCircuitResult.of(int.class, " 42 ")).isEqualTo(42);
        assertThat(ShortCircuitResult.of(boolean.class, "true")).isEqualTo(true);
        assertThat(ShortCircuitResult.of(double.class, "1.5")).isEqualTo(1.5);
    }

    @Test
    void shouldConvertTheSlaTextToBoxedStringAndBigDecimalReturnTypes() {
        assertThat(ShortCircuitResult.of(Long.class, "7")).isEqualTo(7L);
        assertThat(ShortCircuitResult.of(String.class, "cached")).isEqualTo("cached");
        assertThat(ShortCircuitResult.of(BigDecimal.class, "12.50")).isEqualTo(new BigDecimal("12.50"));
    }

    @Test
    void shouldReturnTheTypesDefaultWhenTheSlaSetsNoResult() {
        assertThat(ShortCircuitResult.of(long.class, null)).isEqualTo(0L);
        assertThat(ShortCircuitResult.of(boolean.class, null)).isEqualTo(false);
        assertThat(ShortCircuitResult.of(String.class, null)).isNull();
        assertThat(ShortCircuitResult.of(void.class, "ignored")).isNull();
    }

    @Test
    void shouldNameTheTextAndTheTypeWhenTheTextDoesNotConvert() {
        assertThatThrownBy(() -> ShortCircuitResult.of(long.class, "lots"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'lots'").hasMessageContaining("long");
        assertThatThrownBy(() -> ShortCircuitResult.of(java.util.List.class, "x"))
                .hasMessageContaining("java.util.List");
    }
}
