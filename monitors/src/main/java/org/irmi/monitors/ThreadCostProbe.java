package org.irmi.monitors;

import org.irmi.monitors.internal.JvmThreadCostProbe;

/**
 * Reads the calling thread's CPU time and allocated bytes ({@code com.sun.management.ThreadMXBean}).
 * Tests pass their own for exact figures.
 *
 * <p>CALLING-THREAD ONLY: each method measures the thread that calls it.
 */
public interface ThreadCostProbe {

    /** @return the calling thread's CPU time so far, nanoseconds, or -1 if unsupported or disabled */
    long currentThreadCpuNanos();

    /** @return bytes allocated by the calling thread so far, or -1 if unsupported or disabled */
    long currentThreadAllocatedBytes();

    /** @return the probe on this JVM's thread MXBean */
    static ThreadCostProbe jvm() {
        return JvmThreadCostProbe.INSTANCE;
    }
}
