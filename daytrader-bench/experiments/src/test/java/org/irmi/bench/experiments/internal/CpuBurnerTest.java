package org.irmi.bench.experiments.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class CpuBurnerTest {

    @Test
    void shouldSpinACpuInBurstsAndStopWhenClosed() throws Exception {
        long pid;
        try (CpuBurner burner = CpuBurner.start(null, 300, 1000)) {
            pid = burner.pid();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (burner.cpuNanos() < 100_000_000L && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(burner.cpuNanos()).as("CPU the burner's processes took").isGreaterThanOrEqualTo(100_000_000L);
        }
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }

    @Test
    void shouldRefuseABurstAsLongAsItsPeriod() {
        assertThatThrownBy(() -> CpuBurner.start(null, 1000, 1000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("burnMillis");
    }
}
