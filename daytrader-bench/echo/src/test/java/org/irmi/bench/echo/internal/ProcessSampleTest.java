package org.irmi.bench.echo.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ProcessSampleTest {

    @Test
    void shouldReadThreadsAndRssWhenStatusHasBoth() {
        String status = "Name:\tjava\nVmPeak:\t 9000 kB\nVmRSS:\t  123456 kB\nThreads:\t42\n";

        assertThat(ProcessSample.parseStatus(status)).isEqualTo(new ProcessSample(42, 123456));
    }

    @Test
    void shouldAddUserAndSystemTicksWhenCommandNameHoldsSpacesAndParentheses() {
        String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 1234 567 0 0 20 0 44 0 9 10 11\n";

        assertThat(ProcessSample.parseStatCpuTicks(stat)).isEqualTo(1234 + 567);
    }

    @Test
    void shouldReadGrowingCpuTimeWhenProcessIsThisJvm() {
        long pid = ProcessHandle.current().pid();
        long before = ProcessSample.cpuNanos(pid);
        long spin = System.nanoTime() + 50_000_000;
        long x = 0;
        while (System.nanoTime() < spin) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime());
        }

        assertThat(before).isNotNegative();
        assertThat(ProcessSample.cpuNanos(pid)).as("after spinning (%d)", x).isGreaterThan(before);
    }

    @Test
    void shouldRejectStatusWhenThreadsLineIsMissing() {
        assertThatThrownBy(() -> ProcessSample.parseStatus("VmRSS:\t1 kB\n"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldCountOnlyEstablishedRowsOnLocalPortWhenReadingTcpTable() {
        String table = """
                  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
                   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1
                   1: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 2
                   2: 0100007F:1F90 0100007F:C351 01 00000000:00000000 00:00000000 00000000     0        0 3
                   3: 0100007F:C350 0100007F:1F90 01 00000000:00000000 00:00000000 00000000     0        0 4
                   4: 0100007F:1F90 0100007F:C352 06 00000000:00000000 00:00000000 00000000     0        0 5
                """;

        assertThat(ProcessSample.countEstablished(table, 8080)).isEqualTo(2);
    }

    @Test
    void shouldRecogniseReaderThreadsWhenNamedByJacorbOrIrmi() {
        assertThat(ProcessSample.isReaderThreadName("ServerMessageRe")).isTrue();
        assertThat(ProcessSample.isReaderThreadName("irmi-selector")).isTrue();
        assertThat(ProcessSample.isReaderThreadName("RequestProcesso")).isFalse();
        assertThat(ProcessSample.isReaderThreadName("irmi-dispatch-0")).isFalse();
    }

    @Test
    void shouldSeeThisProcessWhenReadingProc() {
        ProcessSample me = ProcessSample.of(ProcessHandle.current().pid());

        assertThat(me.threads()).isPositive();
        assertThat(me.rssKb()).isPositive();
    }

    @Test
    void shouldReadTheMachinesTotalAndIdleTicksFromTheFirstLineOfProcStat() {
        // user nice system idle iowait irq softirq steal guest guest_nice: guest time is in user already
        long[] t = ProcessSample.parseMachineTicks("cpu  100 5 50 800 20 3 7 15 40 0");
        assertThat(t).containsExactly(100 + 5 + 50 + 800 + 20 + 3 + 7 + 15, 800 + 20);
        assertThat(ProcessSample.machineTicks()).as("this machine's /proc/stat").isNotNull();
        assertThatThrownBy(() -> ProcessSample.parseMachineTicks("cpu0 1 2 3 4 5 6"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not the first line of /proc/stat");
    }
}
