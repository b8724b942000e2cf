package org.irmi.monitors.internal;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryUsage;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;

import org.irmi.monitors.ResourceProbe;

/** {@link ResourceProbe} on the platform MXBeans. THREAD-SAFE. */
public final class JvmResourceProbe implements ResourceProbe {

    /** The single instance. */
    public static final JvmResourceProbe INSTANCE = new JvmResourceProbe();

    private final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    private JvmResourceProbe() {
    }

    @Override
    public long processCpuNanos() {
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return -1L;
    }

    @Override
    public double systemLoadAverage() {
        return os.getSystemLoadAverage();
    }

    @Override
    public long heapUsedBytes() {
        return memory.getHeapMemoryUsage().getUsed();
    }

    @Override
    public long heapMaxBytes() {
        MemoryUsage heap = memory.getHeapMemoryUsage();
        return heap.getMax() > 0 ? heap.getMax() : heap.getCommitted();
    }

    @Override
    public int liveThreads() {
        return threads.getThreadCount();
    }

    @Override
    public int availableProcessors() {
        return Runtime.getRuntime().availableProcessors();
    }
}
