package org.irmi.monitors.internal;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

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

    private static final String STAT = "/proc/stat";
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
        // The first line fits in 256 bytes (ten counters of at most 20 digits); a plain stream and a
        // byte parser: sampled twice a second for the process's life, no regex and no file channel.
        byte[] line = new byte[256];
        try (FileInputStream in = new FileInputStream(STAT)) {
            int n = in.read(line);
            long ticks = parseBusyTicks(line, Math.max(0, n));
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
        byte[] b = line.getBytes(StandardCharsets.US_ASCII);
        return parseBusyTicks(b, b.length);
    }

    /**
     * @param b the file's first bytes, {@code n} of them: the {@code cpu} line up to its newline counts
     * @return user + nice + system + irq + softirq + steal of the line, or -1 if it is not the machine's total
     */
    static long parseBusyTicks(byte[] b, int n) {
        int i = 0;
        while (i < n && b[i] == ' ') {
            i++;
        }
        if (i + 3 >= n || b[i] != 'c' || b[i + 1] != 'p' || b[i + 2] != 'u' || b[i + 3] != ' ') {
            return -1L;
        }
        i += 3;
        long[] f = new long[8]; // user nice system idle iowait irq softirq steal
        int count = 0;
        while (count < f.length) {
            while (i < n && b[i] == ' ') {
                i++;
            }
            if (i >= n || b[i] < '0' || b[i] > '9') {
                break;
            }
            long v = 0;
            while (i < n && b[i] >= '0' && b[i] <= '9') {
                v = Math.addExact(Math.multiplyExact(v, 10), b[i] - '0');
                i++;
            }
            f[count++] = v;
        }
        if (count < 7) {
            return -1L;
        }
        return f[0] + f[1] + f[2] + f[5] + f[6] + (count >= 8 ? f[7] : 0);
    }
}
