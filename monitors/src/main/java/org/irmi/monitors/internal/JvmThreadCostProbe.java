package org.irmi.monitors.internal;

import java.lang.management.ManagementFactory;

import org.irmi.monitors.ThreadCostProbe;

/**
 * {@link ThreadCostProbe} on {@code com.sun.management.ThreadMXBean}. Enables thread CPU time and
 * allocation measurement when the JVM supports them but has them off. CALLING-THREAD ONLY.
 */
public final class JvmThreadCostProbe implements ThreadCostProbe {

    /** The single instance. */
    public static final JvmThreadCostProbe INSTANCE = new JvmThreadCostProbe();

    private final com.sun.management.ThreadMXBean threads;
    private final boolean cpu;
    private final boolean allocation;

    private JvmThreadCostProbe() {
        java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        com.sun.management.ThreadMXBean sun = bean instanceof com.sun.management.ThreadMXBean s ? s : null;
        boolean cpuOn = false;
        boolean allocOn = false;
        if (sun != null) {
            if (sun.isCurrentThreadCpuTimeSupported()) {
                if (!sun.isThreadCpuTimeEnabled()) {
                    sun.setThreadCpuTimeEnabled(true);
                }
                cpuOn = sun.isThreadCpuTimeEnabled();
            }
            if (sun.isThreadAllocatedMemorySupported()) {
                if (!sun.isThreadAllocatedMemoryEnabled()) {
                    sun.setThreadAllocatedMemoryEnabled(true);
                }
                allocOn = sun.isThreadAllocatedMemoryEnabled();
            }
        }
        this.threads = sun;
        this.cpu = cpuOn;
        this.allocation = allocOn;
    }

    @Override
    public long currentThreadCpuNanos() {
        return cpu ? threads.getCurrentThreadCpuTime() : -1L;
    }

    @Override
    public long currentThreadAllocatedBytes() {
        return allocation ? threads.getCurrentThreadAllocatedBytes() : -1L;
    }
}
