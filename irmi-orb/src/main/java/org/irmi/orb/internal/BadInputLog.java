package org.irmi.orb.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import org.slf4j.Logger;

/**
 * Rate-limited WARN lines about hostile or malformed input: at most one line per interval, with
 * the number of similar events left out since the last line, and never a stack trace.
 *
 * <p>Why: the input is the client's to choose. A stack trace per malformed message let one client
 * write megabytes of log per second, and fill the disk or hide everything else.
 *
 * <p>THREADS: any thread (the selector and the dispatch workers); lock-free.
 */
public final class BadInputLog {

    static final long DEFAULT_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Logger log;
    private final LongSupplier nanoClock;
    private final long intervalNanos;
    private final AtomicLong nextLineNanos;
    private final AtomicLong suppressed = new AtomicLong();

    public BadInputLog(Logger log) {
        this(log, System::nanoTime, DEFAULT_INTERVAL_NANOS);
    }

    BadInputLog(Logger log, LongSupplier nanoClock, long intervalNanos) {
        this.log = log;
        this.nanoClock = nanoClock;
        this.intervalNanos = intervalNanos;
        this.nextLineNanos = new AtomicLong(nanoClock.getAsLong());
    }

    /**
     * Logs {@code format} (SLF4J placeholders; arguments rendered with {@code toString}, so a
     * Throwable argument never prints its stack) unless a line was written within the interval.
     *
     * @return true when a line was written
     */
    public boolean note(String format, Object... args) {
        long now = nanoClock.getAsLong();
        long next = nextLineNanos.get();
        if (now - next < 0 || !nextLineNanos.compareAndSet(next, now + intervalNanos)) {
            suppressed.incrementAndGet();
            return false;
        }
        if (!log.isWarnEnabled()) {
            return true;
        }
        Object[] shown = new Object[args.length];
        for (int i = 0; i < args.length; i++) {
            shown[i] = args[i] instanceof Throwable ? args[i].toString() : args[i];
        }
        long left = suppressed.getAndSet(0);
        String line = left == 0 ? format : format + " (" + left + " similar events not logged)";
        log.warn(line, shown);
        return true;
    }

    /** Events not logged since the last line. */
    long suppressed() {
        return suppressed.get();
    }
}
