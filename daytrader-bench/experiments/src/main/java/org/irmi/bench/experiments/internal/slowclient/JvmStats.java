package org.irmi.bench.experiments.internal.slowclient;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * This JVM's garbage collection counters and heap use, read through the platform MXBeans (the
 * same counts JMX and GC notifications report).
 */
final class JvmStats {

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private JvmStats() {
    }

    /** @return collections so far, all collectors together */
    static long gcCount() {
        long count = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount());
        }
        return count;
    }

    /** @return milliseconds spent collecting so far */
    static long gcMillis() {
        long millis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            millis += Math.max(0, gc.getCollectionTime());
        }
        return millis;
    }

    /** @return heap in use, in MB */
    static long heapUsedMb() {
        return MEMORY.getHeapMemoryUsage().getUsed() >> 20;
    }
}
