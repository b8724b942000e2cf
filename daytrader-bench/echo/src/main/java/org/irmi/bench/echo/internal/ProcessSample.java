package org.irmi.bench.echo.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * A process's threads and resident memory, read from {@code /proc/<pid>/status}, and the
 * established TCP connections on a local port, read from {@code /proc/net/tcp} and {@code tcp6}.
 *
 * @param threads  the {@code Threads:} line
 * @param rssKb    the {@code VmRSS:} line, in KiB
 */
public record ProcessSample(int threads, long rssKb) {

    /** Reads {@code /proc/<pid>/status}. */
    public static ProcessSample of(long pid) {
        try {
            return parseStatus(Files.readString(Path.of("/proc", Long.toString(pid), "status")));
        } catch (NoSuchFileException e) {
            throw new IllegalStateException("process " + pid + " has ended (no /proc/" + pid + "/status)", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Clock ticks per second of {@code /proc/<pid>/stat} (USER_HZ, 100 on Linux). */
    public static final long TICKS_PER_SECOND = 100;

    /**
     * CPU time the process has used so far (user + system, all threads), in nanoseconds, from
     * {@code /proc/<pid>/stat}; -1 when it cannot be read. Resolution: one clock tick (10 ms).
     */
    public static long cpuNanos(long pid) {
        try {
            return parseStatCpuTicks(Files.readString(Path.of("/proc", Long.toString(pid), "stat")))
                    * (1_000_000_000L / TICKS_PER_SECOND);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * The machine's CPU time so far, all CPUs together, in clock ticks: {total, idle}, where idle counts
     * the idle and iowait columns of {@code /proc/stat}'s first line; null when it cannot be read.
     */
    public static long[] machineTicks() {
        try (java.io.BufferedReader r = Files.newBufferedReader(Path.of("/proc/stat"))) {
            return parseMachineTicks(r.readLine());
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** {total, idle} ticks from {@code /proc/stat}'s first ("cpu ...") line. */
    public static long[] parseMachineTicks(String cpuLine) {
        String[] f = cpuLine == null ? new String[0] : cpuLine.trim().split("\\s+");
        if (f.length < 6 || !f[0].equals("cpu")) {
            throw new IllegalArgumentException("not the first line of /proc/stat: " + cpuLine);
        }
        long total = 0;
        // user nice system idle iowait irq softirq steal; guest time is already in user and nice
        for (int i = 1; i < Math.min(f.length, 9); i++) {
            total += Long.parseLong(f[i]);
        }
        return new long[] {total, Long.parseLong(f[4]) + Long.parseLong(f[5])};
    }

    /** utime + stime, in clock ticks, from the text of a {@code /proc/<pid>/stat} file. */
    public static long parseStatCpuTicks(String stat) {
        // The command name (field 2) is in parentheses and may hold spaces: count from the last ')'.
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + stat);
        }
        String[] f = stat.substring(close + 1).trim().split("\\s+");
        // f[0] is field 3 (state); utime and stime are fields 14 and 15.
        if (f.length < 13) {
            throw new IllegalArgumentException("too few fields in /proc/<pid>/stat: " + stat);
        }
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** Parses the text of a {@code /proc/<pid>/status} file. */
    public static ProcessSample parseStatus(String status) {
        int threads = -1;
        long rssKb = -1;
        for (String line : status.split("\n")) {
            if (line.startsWith("Threads:")) {
                threads = Integer.parseInt(line.substring(8).trim());
            } else if (line.startsWith("VmRSS:")) {
                rssKb = Long.parseLong(line.substring(6).trim().split("\\s+")[0]);
            }
        }
        if (threads < 0 || rssKb < 0) {
            throw new IllegalArgumentException("status has no Threads: or VmRSS: line");
        }
        return new ProcessSample(threads, rssKb);
    }

    /**
     * Threads of {@code pid} that read connections: JacORB's per-connection
     * {@code ServerMessageReceptor} threads and I-RMI's {@code irmi-selector}, by their names in
     * {@code /proc/<pid>/task/<tid>/comm} (which Linux cuts to 15 characters). -1 when unreadable.
     */
    public static int readerThreads(long pid) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        int n = 0;
        try (var stream = Files.newDirectoryStream(tasks)) {
            for (Path task : stream) {
                try {
                    if (isReaderThreadName(Files.readString(task.resolve("comm")).trim())) {
                        n++;
                    }
                } catch (IOException e) {
                    // the thread ended while we looked
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return n;
    }

    /** True for a reader thread's name as {@code comm} shows it. */
    public static boolean isReaderThreadName(String comm) {
        return comm.startsWith("ServerMessageRe") || comm.startsWith("irmi-selector");
    }

    /** Established TCP connections whose local port is {@code port} (IPv4 and IPv6 tables). */
    public static int establishedConnections(int port) {
        int n = 0;
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            try {
                n += countEstablished(Files.readString(Path.of(table)), port);
            } catch (NoSuchFileException e) {
                // no IPv6 on this machine
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return n;
    }

    /** Counts the rows of a {@code /proc/net/tcp}-format table with local port {@code port}, state 01. */
    public static int countEstablished(String table, int port) {
        String portHex = String.format(":%04X", port);
        int n = 0;
        for (String line : table.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length > 3 && f[1].endsWith(portHex) && f[3].equals("01")) {
                n++;
            }
        }
        return n;
    }
}
