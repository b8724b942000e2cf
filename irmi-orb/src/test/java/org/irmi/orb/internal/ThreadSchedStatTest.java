package org.irmi.orb.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
        // not Linux, or no scheduler statistics: nothing is measured there (the limit stays the maximum)
        assumeTrue(ThreadSchedStat.read(before, 0), "no /proc/thread-self/schedstat here");
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
