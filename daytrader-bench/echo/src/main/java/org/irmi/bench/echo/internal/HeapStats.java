package org.irmi.bench.echo.internal;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

/**
 * The heap a server keeps alive: the heap in use right after its most recent garbage collection.
 * Resident memory mostly follows how far the collector chose to grow the heap; the heap after a
 * collection shows what the server actually holds (connections' buffers, queues, ...).
 *
 * <p>The server writes {@code heapAfterGcKb=N heapUsedKb=M} to a small file every quarter second
 * ({@link #startWriter}); the benchmark reads it ({@link #read}).
 */
public final class HeapStats {

    private static final long WRITE_EVERY_MILLIS = 250;

    private HeapStats() {
    }

    /** Heap in use right after the most recent collection of any collector, KiB; -1 before any collection. */
    public static long heapAfterLastGcKb() {
        long bestStart = -1;
        long kb = -1;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof com.sun.management.GarbageCollectorMXBean sun) {
                com.sun.management.GcInfo info = sun.getLastGcInfo();
                if (info != null && info.getStartTime() >= bestStart) {
                    bestStart = info.getStartTime();
                    long bytes = 0;
                    for (Map.Entry<String, MemoryUsage> e : info.getMemoryUsageAfterGc().entrySet()) {
                        if (isHeapPool(e.getKey())) {
                            bytes += e.getValue().getUsed();
                        }
                    }
                    kb = bytes / 1024;
                }
            }
        }
        return kb;
    }

    private static boolean isHeapPool(String pool) {
        return ManagementFactory.getMemoryPoolMXBeans().stream()
                .anyMatch(p -> p.getName().equals(pool) && p.getType() == java.lang.management.MemoryType.HEAP);
    }

    /** Starts a daemon thread that rewrites {@code file} every 250 ms until the JVM ends. */
    public static void startWriter(Path file) {
        Thread t = new Thread(() -> {
            while (true) {
                try {
                    long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1024;
                    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
                    Files.writeString(tmp, "heapAfterGcKb=" + heapAfterLastGcKb() + " heapUsedKb=" + used + "\n",
                            StandardCharsets.US_ASCII);
                    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    Thread.sleep(WRITE_EVERY_MILLIS);
                } catch (InterruptedException e) {
                    return;
                } catch (IOException e) {
                    // the benchmark may have removed the directory at its end; try again later
                    try {
                        Thread.sleep(WRITE_EVERY_MILLIS);
                    } catch (InterruptedException ie) {
                        return;
                    }
                }
            }
        }, "echo-heap-stats");
        t.setDaemon(true);
        t.start();
    }

    /** The heap after the last GC in {@code file}, KiB; -1 when the file is missing or unreadable. */
    public static long read(Path file) {
        try {
            for (String field : Files.readString(file).trim().split("\\s+")) {
                if (field.startsWith("heapAfterGcKb=")) {
                    return Long.parseLong(field.substring("heapAfterGcKb=".length()));
                }
            }
        } catch (NoSuchFileException e) {
            return -1;
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}
