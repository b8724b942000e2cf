package org.irmi.bench.daytrader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class CpuQuotaTest {

    @Test
    void shouldRejectANonPositiveShareAndANameThatIsNotAPathSegment() {
        assertThatThrownBy(() -> CpuQuota.create("x", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CpuQuota.create("../etc", 0.5)).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * A busy child in a 0.2-CPU group is throttled by the kernel: the group's own counters say so.
     * Where no cgroup can be written (not root, no cpu controller), the reason must be given.
     */
    @Test
    void shouldThrottleABusyChildToItsShare() throws Exception {
        CpuQuota.Outcome outcome = CpuQuota.create("quota-test", 0.2);
        if (outcome.quota().isEmpty()) {
            assertThat(outcome.reason()).isNotBlank();
            assertThat(Files.isWritable(Path.of("/sys/fs/cgroup/cpu"))).as("a writable cpu controller, yet: " + outcome.reason())
                    .isFalse();
            return;
        }
        CpuQuota quota = outcome.quota().get();
        assertThat(quota.describe()).contains("0.20 CPU", "2000 us per 10000 us");
        Process busy = new ProcessBuilder(quota.wrap(List.of("/bin/sh", "-c", "end=$(( $(date +%s) + 1 )); "
                + "while [ $(date +%s) -le $end ]; do :; done; cat /proc/self/cgroup"))).redirectErrorStream(true).start();
        assertThat(busy.waitFor(20, TimeUnit.SECONDS)).isTrue();
        String out = new String(busy.getInputStream().readAllBytes());
        assertThat(busy.exitValue()).as(out).isZero();
        assertThat(out).as("the child ran inside the group").contains("irmi-quota-test");
        assertThat(quota.throttledPeriods()).as("periods in which the kernel stopped the group at its quota").isPositive();
    }
}
