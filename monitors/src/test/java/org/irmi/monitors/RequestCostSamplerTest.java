package org.irmi.monitors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RequestCostSamplerTest {

    private static final long US = 1_000;

    @Test
    void shouldMeasureEveryRequestWhenEveryIsOne() {
        RequestCostSampler s = new RequestCostSampler(1, ThreadCostProbe.jvm());
        for (int i = 0; i < 100; i++) {
            assertThat(s.measure("quote", i * US)).isTrue();
        }
    }

    @Test
    void shouldMeasureOneInEveryOfABusyOperation() {
        RequestCostSampler s = new RequestCostSampler(16, ThreadCostProbe.jvm());
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
        RequestCostSampler s = new RequestCostSampler(16, ThreadCostProbe.jvm());
        assertThat(s.measure("quote", 0)).isTrue();           // first: 0 % 16
        assertThat(s.measure("quote", 100 * US)).isFalse();   // busy
        assertThat(s.measure("quote", 999 * US)).isFalse();   // 0.999 ms after the last measured
        assertThat(s.measure("quote", 1000 * US)).isTrue();   // 1 ms after it
        assertThat(s.measure("quote", 1001 * US)).isFalse();
    }

    @Test
    void shouldMeasureEveryRequestOfARareOperationWhileAnotherIsBusy() {
        RequestCostSampler s = new RequestCostSampler(16, ThreadCostProbe.jvm());
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
        assertThatThrownBy(() -> new RequestCostSampler(0, ThreadCostProbe.jvm())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1");
    }

    @Test
    void shouldReadRealCpuAndAllocationWhenUsingTheJvmProbe() {
        RequestCostSampler s = RequestCostSampler.jvm(1);
        long cpu0 = s.measure("allocate", 0) ? s.cpuNanos() : -1;
        long alloc0 = s.allocatedBytes();
        byte[][] garbage = new byte[16][];
        for (int i = 0; i < garbage.length; i++) {
            garbage[i] = new byte[64 * 1024];
        }
        long cpu = s.cpuNanos() - cpu0;
        long allocated = s.allocatedBytes() - alloc0;
        assertThat(garbage[15]).hasSize(64 * 1024);
        assertThat(cpu0).isGreaterThanOrEqualTo(0);
        assertThat(cpu).isGreaterThanOrEqualTo(0);
        assertThat(allocated).isGreaterThanOrEqualTo(16L * 64 * 1024);
    }

    @Test
    void shouldReadThroughTheGivenProbeWhenOneIsPassed() {
        long[] cpuAndAlloc = {1_000, 5_000};
        RequestCostSampler s = new RequestCostSampler(1, new ThreadCostProbe() {
            @Override
            public long currentThreadCpuNanos() {
                return cpuAndAlloc[0];
            }

            @Override
            public long currentThreadAllocatedBytes() {
                return cpuAndAlloc[1];
            }
        });
        assertThat(s.cpuNanos()).isEqualTo(1_000);
        assertThat(s.allocatedBytes()).isEqualTo(5_000);
        cpuAndAlloc[0] = -1;
        assertThat(s.cpuNanos()).as("a probe that cannot measure").isEqualTo(-1);
    }
}
