package org.irmi.monitors;

import org.irmi.monitors.internal.JvmResourceProbe;

/**
 * Where {@link LocalResourceMonitor} reads the process's resources. The JVM implementation reads the
 * platform MXBeans; tests pass their own so that figures are exact.
 *
 * <p>THREAD-SAFE: implementations may be called from any thread.
 */
public interface ResourceProbe {

    /** @return CPU time used by the whole process so far, nanoseconds (monotonic), or -1 if unknown */
    long processCpuNanos();

    /** @return system load average of the last minute, or a negative value if unavailable */
    double systemLoadAverage();

    /** @return heap in use now, bytes */
    long heapUsedBytes();

    /** @return maximum heap, bytes (the committed heap if no maximum is set) */
    long heapMaxBytes();

    /** @return live threads now */
    int liveThreads();

    /** @return processors available to the JVM */
    int availableProcessors();

    /**
     * @return time spent in garbage collection so far, all collectors, nanoseconds (monotonic), or -1
     *         if unknown. Wall time of the collections, as the JVM reports it.
     */
    default long gcTimeNanos() {
        return -1L;
    }

    /**
     * @return CPU time used so far by the whole machine (every process: user, nice, system, irq,
     *         softirq and steal time of every CPU, Linux's {@code /proc/stat}), nanoseconds
     *         (monotonic, in steps of the kernel's clock tick, usually 10 ms), or -1 if unknown.
     *         With {@link #processCpuNanos()} it tells how much CPU other processes took.
     */
    default long machineCpuNanos() {
        return -1L;
    }

    /**
     * @return CPU time used so far by this JVM's JIT compiler threads, nanoseconds (monotonic, in steps
     *         of the kernel's clock tick), or -1 if unknown ({@link CompilerThreadsCpu}). It is part of
     *         {@link #processCpuNanos()}, and not the requests' doing.
     */
    default long compilerCpuNanos() {
        return -1L;
    }

    /** @return the probe reading this JVM's MXBeans */
    static ResourceProbe jvm() {
        return JvmResourceProbe.INSTANCE;
    }
}
