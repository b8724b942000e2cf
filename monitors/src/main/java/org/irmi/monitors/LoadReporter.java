package org.irmi.monitors;

import java.util.Objects;

/**
 * The server side of remote resource monitoring: turns the local monitor's snapshot into the
 * encoded {@link LoadReport} that the ORB attaches to every reply, recomputing it at most once per
 * {@code refreshNanos} so that a reply costs one volatile read and an array copy.
 *
 * <p>Isolation points set the {@link #setOverloaded(boolean) overloaded} and
 * {@link #setPoisonEpisode(boolean) poison-episode} flags; the next refresh carries them (a flag
 * change forces one).
 *
 * <p>THREAD-SAFE. {@link #encoded()} may be called by any reply thread; when a refresh is due one
 * caller recomputes while the others keep using the previous bytes.
 */
public final class LoadReporter {

    /** Default time between recomputations: 100 ms. */
    public static final long DEFAULT_REFRESH_NANOS = 100_000_000L;

    private final LocalResourceMonitor local;
    private final Clock clock;
    private final long refreshNanos;
    private volatile boolean overloaded;
    private volatile boolean poisonEpisode;
    private volatile Cached cached;
    private final java.util.concurrent.atomic.AtomicBoolean refreshing = new java.util.concurrent.atomic.AtomicBoolean();

    private final java.util.concurrent.atomic.AtomicLong versions = new java.util.concurrent.atomic.AtomicLong();

    private record Cached(long atNanos, long version, LoadReport report, byte[] bytes) {
    }

    /**
     * @param local        the local resource monitor
     * @param clock        time source
     * @param refreshNanos time between recomputations, &gt; 0
     */
    public LoadReporter(LocalResourceMonitor local, Clock clock, long refreshNanos) {
        this.local = Objects.requireNonNull(local, "local");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (refreshNanos <= 0) {
            throw new IllegalArgumentException("refreshNanos must be > 0, was " + refreshNanos);
        }
        this.refreshNanos = refreshNanos;
    }

    /** @param value whether this server is overloaded */
    public void setOverloaded(boolean value) {
        if (overloaded != value) {
            overloaded = value;
            cached = null;
        }
    }

    /** @param value whether a poison episode is in progress */
    public void setPoisonEpisode(boolean value) {
        if (poisonEpisode != value) {
            poisonEpisode = value;
            cached = null;
        }
    }

    /** @return the current report (recomputed if due) */
    public LoadReport report() {
        return current().report();
    }

    /**
     * @return the version of the current report (recomputed if due): it changes at every
     *         recomputation, so a reply that carries {@link #encoded()} only when the version has
     *         changed for its connection still carries every new figure
     */
    public long version() {
        return current().version();
    }

    /** @return a fresh copy of the current encoded report, for one reply's service context */
    public byte[] encoded() {
        return current().bytes().clone();
    }

    private Cached current() {
        Cached c = cached;
        long now = clock.nanoTime();
        if (c != null && now - c.atNanos() < refreshNanos) {
            return c;
        }
        if (c != null && !refreshing.compareAndSet(false, true)) {
            return c; // someone else is refreshing; the old figures are good enough for this reply
        }
        try {
            LoadReport r = LoadReport.from(local.snapshot(), overloaded, poisonEpisode);
            Cached fresh = new Cached(now, versions.incrementAndGet(), r, LoadReportCodec.encode(r));
            cached = fresh;
            return fresh;
        } finally {
            if (c != null) {
                refreshing.set(false);
            }
        }
    }
}
