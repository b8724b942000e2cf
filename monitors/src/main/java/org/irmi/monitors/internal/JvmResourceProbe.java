package org.irmi.monitors.internal;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryUsage;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;

import org.irmi.monitors.CompilerThreadsCpu;
import org.irmi.monitors.ResourceProbe;

/** {@link ResourceProbe} on the platform MXBeans (and Linux's {@code /proc} for the machine's and the JIT's CPU). THREAD-SAFE. */
public final class JvmResourceProbe implements ResourceProbe {

    /** The single instance. */
    public static final JvmResourceProbe INSTANCE = new JvmResourceProbe();

    private final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final java.util.List<java.lang.management.GarbageCollectorMXBean> gcs =
            ManagementFactory.getGarbageCollectorMXBeans();

    private final CompilerThreadsCpu compilers = CompilerThreadsCpu.self();

    private static final long PROCESSORS_REREAD_NANOS = 1_000_000_000L;
    // a stale read (a racing thread's) is at most a second old: good enough for a core count
    private volatile int processors;
    private volatile long processorsReadAtNanos;

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
    public long gcTimeNanos() {
        long millis = 0;
        boolean any = false;
        for (java.lang.management.GarbageCollectorMXBean gc : gcs) {
            long t = gc.getCollectionTime();
            if (t >= 0) {
                millis += t;
                any = true;
            }
        }
        return any ? millis * 1_000_000L : -1L;
    }

    @Override
    public long machineCpuNanos() {
        return MachineCpu.readNanos();
    }

    @Override
    public long compilerCpuNanos() {
        return compilers.nanos();
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

    /**
     * Read again at most once a second: in a container with a CPU quota, JDK 17's
     * {@code availableProcessors} opens and parses the cgroup's files at every call (tens of
     * microseconds), and a load report's refresh on a reply's path asked it each time.
     */
    @Override
    public int availableProcessors() {
        long now = System.nanoTime();
        int n = processors;
        if (n == 0 || now - processorsReadAtNanos >= PROCESSORS_REREAD_NANOS) {
            n = Runtime.getRuntime().availableProcessors();
            processorsReadAtNanos = now;
            processors = n;
        }
        return n;
    }
}
