package org.irmi.monitors.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MachineCpuTest {

    @Test
    void shouldAddTheBusyFieldsWhenParsingTheCpuLine() {
        // user nice system idle iowait irq softirq steal guest guest_nice
        assertThat(MachineCpu.parseBusyTicks("cpu  100 2 30 9000 50 4 5 6 0 0")).isEqualTo(147);
    }

    @Test
    void shouldRefuseALineThatIsNotTheMachineTotalWhenParsing() {
        assertThat(MachineCpu.parseBusyTicks("cpu0 100 2 30 9000 50 4 5 6 0 0")).isEqualTo(-1);
        assertThat(MachineCpu.parseBusyTicks("intr 1 2 3")).isEqualTo(-1);
    }

    @Test
    void shouldReadAGrowingCountWhenTheFileExists() {
        long first = MachineCpu.readNanos();
        if (first >= 0) { // Linux
            assertThat(MachineCpu.readNanos()).isGreaterThanOrEqualTo(first);
        }
    }
}
