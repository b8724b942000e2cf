package org.irmi.orb.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class ThreadSchedStatTest {

    @Test
    void shouldParseTimeOnACoreAndTimeWaitingForOne() {
        byte[] b = "258251607 139527553 144\n".getBytes(StandardCharsets.US_ASCII);
        long[] out = {-1, -1, -1};
        assertThat(ThreadSchedStat.parse(b, b.length, out, 1)).isTrue();
        assertThat(out).containsExactly(-1, 258251607, 139527553);
    }

    @Test
    void shouldRefuseWhatIsNotTwoNumbers() {
        byte[] b = "258251607\n".getBytes(StandardCharsets.US_ASCII);
        long[] out = {-1, -1};
        assertThat(ThreadSchedStat.parse(b, b.length, out, 0)).isFalse();
        assertThat(out).containsExactly(-1, -1);
    }

    @Test
    void shouldSeeThisThreadsCpuTimeGrowWhereLinuxReportsIt() {
        long[] before = new long[2];
        boolean readable = ThreadSchedStat.read(before, 0);
        if (!System.getProperty("os.name").startsWith("Linux")) {
            // no /proc there: nothing is measured, and the in-flight limit stays the configured maximum
            assertThat(readable).as("scheduler statistics outside Linux").isFalse();
            return;
        }
        assertThat(readable).as("/proc/thread-self/schedstat not readable on this Linux kernel (CONFIG_SCHED_INFO?)")
                .isTrue();
        long x = 0;
        for (int i = 0; i < 20_000_000; i++) {
            x += i ^ (x >>> 3);
        }
        long[] after = new long[2];
        assertThat(ThreadSchedStat.read(after, 0)).isTrue();
        assertThat(after[0]).as("time on a core (x=%d)", x).isGreaterThan(before[0]);
        assertThat(after[1]).isGreaterThanOrEqualTo(before[1]);
    }
}
