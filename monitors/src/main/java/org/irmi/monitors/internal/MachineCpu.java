package org.irmi.monitors.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU time the whole machine has used, from the first line of Linux's {@code /proc/stat}:
 *
 * <pre>
 *   cpu  user nice system idle iowait irq softirq steal guest guest_nice      (clock ticks, USER_HZ = 100)
 *   busy = user + nice + system + irq + softirq + steal                       (guest is inside user)
 * </pre>
 * Read once per edge sample (a single small file). Where the file does not exist or cannot be
 * parsed, {@link #readNanos} returns -1 and nothing is measured.
 *
 * <p>THREAD-SAFE (stateless but for the unavailable flag).
 */
final class MachineCpu {

    private static final Path STAT = Path.of("/proc/stat");
    /** USER_HZ: Linux reports /proc/stat in units of 1/100 s on every architecture it runs the JVM on. */
    private static final long NANOS_PER_TICK = 10_000_000L;
    private static volatile boolean unavailable;

    private MachineCpu() {
    }

    /** @return busy CPU time of the machine so far, nanoseconds, or -1 if unknown */
    static long readNanos() {
        if (unavailable) {
            return -1L;
        }
        try {
            byte[] bytes = Files.readAllBytes(STAT);
            int end = 0;
            while (end < bytes.length && bytes[end] != '\n') {
                end++;
            }
            long ticks = parseBusyTicks(new String(bytes, 0, end, StandardCharsets.US_ASCII));
            if (ticks < 0) {
                unavailable = true;
                return -1L;
            }
            return ticks * NANOS_PER_TICK;
        } catch (IOException | RuntimeException e) {
            unavailable = true;
            return -1L;
        }
    }

    /** @return user + nice + system + irq + softirq + steal of a {@code cpu ...} line, or -1 if it is not one */
    static long parseBusyTicks(String line) {
        String[] f = line.trim().split("\\s+");
        if (f.length < 8 || !f[0].equals("cpu")) {
            return -1L;
        }
        long busy = 0;
        int[] busyFields = f.length >= 9 ? new int[] {1, 2, 3, 6, 7, 8} : new int[] {1, 2, 3, 6, 7};
        for (int i : busyFields) {
            busy += Long.parseLong(f[i]);
        }
        return busy;
    }
}
