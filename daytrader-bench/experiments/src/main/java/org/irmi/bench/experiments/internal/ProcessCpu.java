package org.irmi.bench.experiments.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.irmi.monitors.CompilerThreadsCpu;

/**
 * A process's CPU time from Linux's {@code /proc/PID/stat}: user + system, in nanoseconds (the
 * kernel counts in ticks of 1/100 s, {@code USER_HZ}).
 */
public final class ProcessCpu {

    private static final long NANOS_PER_TICK = 10_000_000L;

    private ProcessCpu() {
    }

    /** @return the process's own CPU time, -1 when it cannot be read (gone, or not Linux) */
    public static long nanos(long pid) {
        long[] f = fields(pid);
        return f == null ? -1 : (f[0] + f[1]) * NANOS_PER_TICK;
    }

    /**
     * @return the CPU time of the process, of its children that ended and were waited for, and of
     *     its descendants still running; -1 when the process's own cannot be read
     */
    public static long nanosWithDescendants(ProcessHandle process) {
        long[] f = fields(process.pid());
        if (f == null) {
            return -1;
        }
        long ticks = f[0] + f[1] + f[2] + f[3];
        for (ProcessHandle d : process.descendants().toList()) {
            long[] g = fields(d.pid());
            if (g != null) {
                ticks += g[0] + g[1];
            }
        }
        return ticks * NANOS_PER_TICK;
    }

    /**
     * @return the CPU time (user + system) of the process's JIT compiler threads, HotSpot's
     *     {@code C1 CompilerThread*} and {@code C2 CompilerThread*}, in nanoseconds; -1 when the
     *     process's threads cannot be read
     */
    public static long compilerNanos(long pid) {
        return CompilerThreadsCpu.of(pid).nanos();
    }

    /** @return utime, stime, cutime, cstime in ticks, or null */
    private static long[] fields(long pid) {
        return fields(Path.of("/proc/" + pid + "/stat"));
    }

    /** @return utime, stime, cutime, cstime in ticks of a process's or a thread's {@code stat} file, or null */
    private static long[] fields(Path statFile) {
        try {
            String stat = Files.readString(statFile);
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" "); // from field 3 (state) on
            return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13]), Long.parseLong(f[14])};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
