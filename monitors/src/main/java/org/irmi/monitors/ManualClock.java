package org.irmi.monitors;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves only when told to: the time source for every windowed test.
 *
 * <p>Monotonic and wall time move together. Time never moves backwards: {@link #advanceNanos(long)}
 * refuses negative steps and {@link #setNanos(long)} refuses earlier times, so code under test never
 * sees a clock that a real JVM could not produce.
 *
 * <p>THREAD-SAFE: any thread may read or advance it.
 */
public final class ManualClock implements Clock {

    /** Wall time a new clock starts at unless told otherwise: 2026-01-01T00:00:00Z. */
    public static final long DEFAULT_START_WALL_MILLIS = 1_767_225_600_000L;

    private final AtomicLong nanos;
    private final long startNanos;
    private final long startWallMillis;

    /** A clock at monotonic time 0 and wall time {@link #DEFAULT_START_WALL_MILLIS}. */
    public ManualClock() {
        this(0L, DEFAULT_START_WALL_MILLIS);
    }

    /**
     * A clock at the given times.
     *
     * @param startNanos      initial monotonic time, nanoseconds (any value, negative allowed)
     * @param startWallMillis initial wall time, milliseconds since the epoch
     */
    public ManualClock(long startNanos, long startWallMillis) {
        this.nanos = new AtomicLong(startNanos);
        this.startNanos = startNanos;
        this.startWallMillis = startWallMillis;
    }

    @Override
    public long nanoTime() {
        return nanos.get();
    }

    @Override
    public long wallMillis() {
        return startWallMillis + Math.floorDiv(nanos.get() - startNanos, 1_000_000L);
    }

    /**
     * Moves time forward.
     *
     * @param step how far; must not be negative
     * @return this clock
     */
    public ManualClock advance(Duration step) {
        return advanceNanos(step.toNanos());
    }

    /**
     * Moves time forward.
     *
     * @param stepNanos how far, nanoseconds; must not be negative
     * @return this clock
     */
    public ManualClock advanceNanos(long stepNanos) {
        if (stepNanos < 0) {
            throw new IllegalArgumentException("stepNanos must be >= 0 (a monotonic clock never goes back), was " + stepNanos);
        }
        nanos.addAndGet(stepNanos);
        return this;
    }

    /**
     * Moves time forward.
     *
     * @param stepMillis how far, milliseconds; must not be negative
     * @return this clock
     */
    public ManualClock advanceMillis(long stepMillis) {
        return advanceNanos(Math.multiplyExact(stepMillis, 1_000_000L));
    }

    /**
     * Sets the monotonic time.
     *
     * @param newNanos the new time; must not be earlier than the current one
     * @return this clock
     */
    public ManualClock setNanos(long newNanos) {
        long current = nanos.get();
        if (newNanos < current) {
            throw new IllegalArgumentException("newNanos " + newNanos + " is earlier than the current time " + current
                    + "; a monotonic clock never goes back");
        }
        nanos.accumulateAndGet(newNanos, Math::max);
        return this;
    }

    @Override
    public String toString() {
        return "ManualClock[nanos=" + nanos.get() + "]";
    }
}
