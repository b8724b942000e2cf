package org.irmi.orb.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CpuSamplerTest {

    private static final long US = 1_000;

    @Test
    void shouldMeasureEveryRequestWhenEveryIsOne() {
        CpuSampler s = new CpuSampler(1);
        for (int i = 0; i < 100; i++) {
            assertThat(s.measure("quote", i * US)).isTrue();
        }
    }

    @Test
    void shouldMeasureOneInEveryOfABusyOperation() {
        CpuSampler s = new CpuSampler(16);
        int measured = 0;
        for (int i = 0; i < 160; i++) {
            if (s.measure("quote", 10 * US + i * US)) { // 1,000 per second: never quiet for 1 ms
                measured++;
            }
        }
        assertThat(measured).isEqualTo(10);
    }

    @Test
    void shouldMeasureTheNextRequestOfAnOperationQuietForAMillisecond() {
        CpuSampler s = new CpuSampler(16);
        assertThat(s.measure("quote", 0)).isTrue();           // first: 0 % 16
        assertThat(s.measure("quote", 100 * US)).isFalse();   // busy
        assertThat(s.measure("quote", 999 * US)).isFalse();   // 0.999 ms after the last measured
        assertThat(s.measure("quote", 1000 * US)).isTrue();   // 1 ms after it
        assertThat(s.measure("quote", 1001 * US)).isFalse();
    }

    @Test
    void shouldMeasureEveryRequestOfARareOperationWhileAnotherIsBusy() {
        CpuSampler s = new CpuSampler(16);
        int rareMeasured = 0;
        for (int i = 0; i < 10_000; i++) {
            long now = i * 10 * US;                           // 100,000 quotes a second...
            s.measure("quote", now);
            if (i % 500 == 1 && s.measure("poison", now)) {    // ...and a poison every 5 ms
                rareMeasured++;
            }
        }
        assertThat(rareMeasured).isEqualTo(20);
    }

    @Test
    void shouldRefuseEveryBelowOne() {
        assertThatThrownBy(() -> new CpuSampler(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1");
    }
}
