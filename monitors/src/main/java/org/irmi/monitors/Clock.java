package org.irmi.monitors;

import org.irmi.monitors.internal.SystemClock;

/**
 * The one time source of I-RMI: monotonic nanoseconds for windows and durations, wall-clock
 * milliseconds only for timestamps.
 *
 * <p>Everything windowed takes a {@code Clock} instead of calling {@link System#nanoTime()}, so that
 * tests drive time with a {@link ManualClock} and never sleep.
 *
 * <p>THREAD-SAFE: implementations may be called from any thread at any time.
 */
public interface Clock {

    /**
     * Monotonic time in nanoseconds, with an arbitrary origin. Only differences are meaningful.
     *
     * @return the current monotonic time, nanoseconds
     */
    long nanoTime();

    /**
     * Wall-clock time in milliseconds since the Unix epoch. Use only for timestamps, never for
     * durations (it can jump).
     *
     * @return the current wall time, milliseconds
     */
    long wallMillis();

    /**
     * The JVM's clock: {@link System#nanoTime()} and {@link System#currentTimeMillis()}.
     *
     * @return the shared system clock
     */
    static Clock system() {
        return SystemClock.INSTANCE;
    }
}
