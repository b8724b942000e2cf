package org.irmi.monitors.internal;

import org.irmi.monitors.Clock;

/** The JVM's clock. THREAD-SAFE and stateless. */
public final class SystemClock implements Clock {

    /** The single instance; use {@link Clock#system()}. */
    public static final SystemClock INSTANCE = new SystemClock();

    private SystemClock() {
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public long wallMillis() {
        return System.currentTimeMillis();
    }

    @Override
    public String toString() {
        return "SystemClock";
    }
}
