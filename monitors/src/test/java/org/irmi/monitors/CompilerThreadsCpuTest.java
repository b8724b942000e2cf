package org.irmi.monitors;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompilerThreadsCpuTest {

    @TempDir
    Path proc;
    private long now;

    private void thread(int tid, String name, long utime, long stime) throws IOException {
        Path dir = proc.resolve(Integer.toString(tid));
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("comm"), name + "\n");
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
        Files.writeString(dir.resolve("stat"), tid + " (" + name + ") S 1 1 1 0 -1 4194368 10 0 0 0 " + utime + " "
                + stime + " 0 0 20 0 1 0 100 0 0", StandardCharsets.US_ASCII);
    }

    private void ended(int tid) throws IOException {
        Path dir = proc.resolve(Integer.toString(tid));
        Files.delete(dir.resolve("comm"));
        Files.delete(dir.resolve("stat"));
        Files.delete(dir);
    }

    @Test
    void shouldAddTheCompilerThreadsOnlyWhenRead() throws IOException {
        thread(10, "C2 CompilerThre", 30, 5);
        thread(11, "C1 CompilerThre", 7, 1);
        thread(12, "irmi-dispatch-1", 500, 90);
        CompilerThreadsCpu cpu = new CompilerThreadsCpu(proc.toString(), () -> now);

        assertThat(cpu.nanos()).isEqualTo(43 * 10_000_000L);
    }

    @Test
    void shouldKeepWhatAThreadUsedWhenItEnds() throws IOException {
        thread(10, "C2 CompilerThre", 30, 5);
        thread(11, "C2 CompilerThre", 20, 0);
        CompilerThreadsCpu cpu = new CompilerThreadsCpu(proc.toString(), () -> now);
        cpu.nanos();
        thread(11, "C2 CompilerThre", 25, 0);
        cpu.nanos();

        ended(11);

        assertThat(cpu.nanos()).isEqualTo(60 * 10_000_000L);
        now += TimeUnit.SECONDS.toNanos(10); // a listing finds it gone too
        assertThat(cpu.nanos()).isEqualTo(60 * 10_000_000L);
    }

    @Test
    void shouldCountACompilerThreadThatStartedFromTheNextListing() throws IOException {
        thread(10, "C2 CompilerThre", 30, 0);
        CompilerThreadsCpu cpu = new CompilerThreadsCpu(proc.toString(), () -> now);
        cpu.nanos();
        thread(13, "C2 CompilerThre", 12, 3);

        assertThat(cpu.nanos()).isEqualTo(30 * 10_000_000L);
        now += CompilerThreadsCpu.RESCAN_NANOS;
        assertThat(cpu.nanos()).isEqualTo(45 * 10_000_000L);
    }

    @Test
    void shouldReadNamesWithSpacesAndParenthesesWhenParsingStat() {
        byte[] stat = "7 (a) b (c) R 1 1 1 0 -1 0 0 0 0 0 120 34 0 0 20".getBytes(StandardCharsets.US_ASCII);

        assertThat(CompilerThreadsCpu.userPlusSystemTicks(stat, stat.length)).isEqualTo(154);
    }

    @Test
    void shouldBeUnknownWhenTheThreadsCannotBeListed() {
        CompilerThreadsCpu cpu = new CompilerThreadsCpu(proc.resolve("gone").toString(), () -> now);

        assertThat(cpu.nanos()).isEqualTo(-1);
    }

    @Test
    void shouldReadThisJvmsCompilerThreadsWhenOnLinux() {
        if (!Files.isDirectory(Path.of("/proc/self/task"))) {
            return; // not Linux: nothing to read
        }
        CompilerThreadsCpu cpu = CompilerThreadsCpu.self();
        long first = cpu.nanos();

        assertThat(first).isGreaterThanOrEqualTo(0);
        assertThat(cpu.nanos()).isGreaterThanOrEqualTo(first);
        assertThat(CompilerThreadsCpu.of(1).nanos()).as("init has no JIT").isIn(0L, -1L);
    }
}
