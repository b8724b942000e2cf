package org.irmi.monitors;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The CPU time a HotSpot JVM's JIT compiler threads ({@code C1 CompilerThread*} and
 * {@code C2 CompilerThread*}) have used, from Linux's {@code /proc/PID/task/TID/comm} and
 * {@code stat} (user + system, in ticks of 1/100 s, {@code USER_HZ}).
 *
 * <pre>
 *   nanos() = sum over every compiler thread seen so far of (its CPU at its last reading)
 * </pre>
 * The sum never goes down: HotSpot starts and stops compiler threads as its queue grows and shrinks,
 * and a thread that ended keeps what it used. The threads are found by name every
 * {@link #RESCAN_NANOS} (a listing of the process's threads); between two listings only the known
 * threads' {@code stat} files are read, a small file each; a listing reads the name only of the
 * threads it has not seen before. A thread found at a listing adds all it
 * used since it started.
 *
 * <p>Why: a compilation on the process's cores takes their time from the requests, as another
 * process would; the poison point's edge sampler counts it with the other processes' CPU, not with
 * the requests' ({@code EdgeSampler}).
 *
 * <p>THREAD-SAFE: {@link #nanos} is synchronized.
 */
public final class CompilerThreadsCpu {

    /** How often the process's threads are listed again, to find compiler threads that started. */
    public static final long RESCAN_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long NANOS_PER_TICK = 10_000_000L;

    private final String taskDir;
    private final LongSupplier nanoClock;
    /** Path of each known compiler thread's stat file, and its CPU ticks at the last reading. */
    private final Map<String, Long> known = new HashMap<>();
    /** Every thread listed so far, by id: a thread's name is read once, at the listing that first finds it. */
    private final Set<String> listed = new HashSet<>();
    private final byte[] buffer = new byte[1024];
    private long endedTicks;
    private long lastScan;
    private boolean scanned;
    private boolean unavailable;

    /**
     * @param taskDir   a process's {@code task} directory, {@code /proc/PID/task}
     * @param nanoClock when to list the threads again
     */
    CompilerThreadsCpu(String taskDir, LongSupplier nanoClock) {
        this.taskDir = taskDir;
        this.nanoClock = nanoClock;
    }

    /** @return a reader of this JVM's compiler threads */
    public static CompilerThreadsCpu self() {
        return of(ProcessHandle.current().pid());
    }

    /** @return a reader of process {@code pid}'s compiler threads (a HotSpot JVM) */
    public static CompilerThreadsCpu of(long pid) {
        return new CompilerThreadsCpu("/proc/" + pid + "/task", System::nanoTime);
    }

    /**
     * @return the CPU time the compiler threads used so far, nanoseconds, monotonic, in steps of
     *     10 ms; -1 when the process's threads cannot be read (not Linux, or the process ended)
     */
    public synchronized long nanos() {
        if (unavailable) {
            return -1L;
        }
        long now = nanoClock.getAsLong();
        if (!scanned || now - lastScan >= RESCAN_NANOS) {
            if (!scan()) {
                unavailable = true;
                return -1L;
            }
            scanned = true;
            lastScan = now;
        }
        long ticks = endedTicks;
        for (Iterator<Map.Entry<String, Long>> it = known.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Long> e = it.next();
            long t = ticksOf(e.getKey());
            if (t < 0) { // the thread ended: it keeps what it used
                endedTicks += e.getValue();
                ticks += e.getValue();
                it.remove();
            } else {
                long kept = Math.max(t, e.getValue());
                e.setValue(kept);
                ticks += kept;
            }
        }
        return ticks * NANOS_PER_TICK;
    }

    /** Lists the threads and adds the compiler threads not known yet; false when the list cannot be read. */
    private boolean scan() {
        String[] tids = new File(taskDir).list();
        if (tids == null) {
            return false;
        }
        Set<String> now = new HashSet<>(List.of(tids));
        listed.retainAll(now); // threads that ended: their ids may come back for new threads
        for (String tid : tids) {
            if (listed.add(tid) && isCompilerThread(taskDir + "/" + tid + "/comm")) {
                known.put(taskDir + "/" + tid + "/stat", 0L);
            }
        }
        return true;
    }

    private boolean isCompilerThread(String commFile) {
        int n = read(commFile);
        return n >= 15 && (startsWith(n, "C1 CompilerThre") || startsWith(n, "C2 CompilerThre"));
    }

    private boolean startsWith(int n, String prefix) {
        for (int i = 0; i < prefix.length(); i++) {
            if (i >= n || buffer[i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** @return utime + stime of a thread's stat file, in ticks, or -1 when it cannot be read */
    private long ticksOf(String statFile) {
        int n = read(statFile);
        return n <= 0 ? -1L : userPlusSystemTicks(buffer, n);
    }

    /**
     * @param b a {@code stat} file's first {@code n} bytes: {@code pid (name) state ppid ...}, the name
     *          may hold spaces and parentheses
     * @return its fields 14 and 15 (utime + stime), in ticks, or -1 if it is not such a line
     */
    static long userPlusSystemTicks(byte[] b, int n) {
        int i = n - 1;
        while (i > 0 && b[i] != ')') {
            i--;
        }
        if (i <= 0) {
            return -1L;
        }
        // after ") ": field 3 (state) is the 0th; utime is the 11th after it, stime the 12th
        int field = 0;
        i += 2;
        long sum = 0;
        for (; i < n && field <= 12; i++) {
            if (b[i] == ' ') {
                field++;
                continue;
            }
            if (field == 11 || field == 12) {
                if (b[i] < '0' || b[i] > '9') {
                    return -1L;
                }
                long v = 0;
                while (i < n && b[i] >= '0' && b[i] <= '9') {
                    v = v * 10 + (b[i] - '0');
                    i++;
                }
                sum += v;
                field++;
                if (field > 12) {
                    return sum;
                }
            }
        }
        return -1L;
    }

    private int read(String file) {
        try (FileInputStream in = new FileInputStream(file)) {
            return Math.max(0, in.read(buffer));
        } catch (IOException e) {
            return -1;
        }
    }
}
