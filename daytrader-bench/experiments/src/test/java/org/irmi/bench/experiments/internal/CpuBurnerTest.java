package org.irmi.bench.experiments.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class CpuBurnerTest {

    private static final long S = 1_000_000_000L;

    private final CpuBurner twoInTen = CpuBurner.custom().cpus("1").build();

    @Test
    void shouldBurnTheFirstTwoSecondsOfEveryTenWhenDefault() {
        assertThat(twoInTen.burningAt(0)).isTrue();
        assertThat(twoInTen.burningAt(2 * S - 1)).isTrue();
        assertThat(twoInTen.burningAt(2 * S)).isFalse();
        assertThat(twoInTen.burningAt(10 * S - 1)).isFalse();
        assertThat(twoInTen.burningAt(10 * S)).isTrue();
        assertThat(twoInTen.burningAt(73 * S)).isFalse();
    }

    @Test
    void shouldNameTheNextStartOrStopWhenAskedForTheNextChange() {
        assertThat(twoInTen.nextChangeNanos(0)).isEqualTo(2 * S);
        assertThat(twoInTen.nextChangeNanos(2 * S)).isEqualTo(10 * S);
        assertThat(twoInTen.nextChangeNanos(11 * S)).isEqualTo(12 * S);
    }

    @Test
    void shouldWaitForTheOffsetWhenOneIsGiven() {
        CpuBurner late = CpuBurner.custom().offset(Duration.ofSeconds(5)).build();

        assertThat(late.burningAt(1 * S)).isFalse();
        assertThat(late.nextChangeNanos(1 * S)).isEqualTo(5 * S);
        assertThat(late.burningAt(5 * S)).isTrue();
        assertThat(late.nextChangeNanos(5 * S)).isEqualTo(7 * S);
    }

    @Test
    void shouldRunOneThreadPerPinnedCpuWhenThreadsAreNotGiven() {
        assertThat(CpuBurner.custom().cpus("0-1").build().threads()).isEqualTo(2);
        assertThat(CpuBurner.custom().cpus("0,2-4").build().threads()).isEqualTo(4);
        assertThat(twoInTen.averageCores()).isEqualTo(0.2);
    }

    @Test
    void shouldRefuseABurstLongerThanThePeriodWhenBuilt() {
        assertThatThrownBy(() -> CpuBurner.custom().burn(Duration.ofSeconds(11)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("burn");
        assertThatThrownBy(() -> CpuBurner.custom().cpus("x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("taskset");
    }

    @Test
    void shouldPassItsScheduleToTheChildWhenBuildingIt() {
        assertThat(twoInTen.child("burner").name()).isEqualTo("burner");
        assertThat(twoInTen.toString()).contains("2000 ms in every 10000 ms");
    }
}
