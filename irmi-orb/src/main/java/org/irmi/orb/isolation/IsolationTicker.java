package org.irmi.orb.isolation;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

import org.irmi.isolation.IsolationRuntime;
import org.irmi.monitors.Clock;
import org.irmi.monitors.LoadReporter;
import org.irmi.monitors.LocalResourceMonitor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The isolation ticker, a daemon thread named {@code irmi-isolation}. Every {@value #TICK_MILLIS}
 * ms it samples local resources, ticks the runtime in force, sets the load report's overload and
 * poison-episode flags, and drives the crosstalk point; once a second it evaluates the SLA
 * objectives, and every half second it publishes the dashboard's views. Woken between ticks
 * ({@link #wake}) when a stream opens or becomes active, it drives the crosstalk point at once
 * (at most every {@value #EARLY_CROSSTALK_MILLIS} ms), so budgets and buffers follow without
 * waiting for the tick.
 *
 * <p>A failed tick is logged and the loop goes on at the next tick; it never spins.
 */
final class IsolationTicker {

    /** The tick period, in milliseconds. */
    static final long TICK_MILLIS = 50;
    /** Least time between two crosstalk recomputations woken by stream activity, in milliseconds. */
    private static final long EARLY_CROSSTALK_MILLIS = 2;
    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS);
    private static final long EARLY_CROSSTALK_NANOS = TimeUnit.MILLISECONDS.toNanos(EARLY_CROSSTALK_MILLIS);
    // the glue's log category, as before OrbIsolation was split
    private static final Logger LOG = LoggerFactory.getLogger(OrbIsolation.class);

    private final Clock clock;
    private final Supplier<IsolationRuntime> runtime;
    private final ObjectiveMonitor objectives;
    private final LocalResourceMonitor local;
    private final LoadReporter reporter;
    private final CrosstalkDriver crosstalk;
    private final LongConsumer publishViews;
    private final Thread thread;
    private volatile boolean running = true;
    // loop state: TICKER THREAD only (or the caller's, see turn())
    private long ticks;
    private long nextTick;
    private long lastCrosstalk = Long.MIN_VALUE / 2;

    /**
     * Creates the thread; {@link #start} runs it.
     *
     * @param runtime      the runtime in force, read once per turn
     * @param publishViews publishes the dashboard's views, given the tick's {@link Clock#nanoTime()}
     */
    IsolationTicker(Clock clock, Supplier<IsolationRuntime> runtime, ObjectiveMonitor objectives,
                    LocalResourceMonitor local, LoadReporter reporter, CrosstalkDriver crosstalk,
                    LongConsumer publishViews) {
        this.clock = clock;
        this.runtime = runtime;
        this.objectives = objectives;
        this.local = local;
        this.reporter = reporter;
        this.crosstalk = crosstalk;
        this.publishViews = publishViews;
        this.nextTick = clock.nanoTime();
        this.thread = new Thread(this::loop, "irmi-isolation");
        thread.setDaemon(true);
    }

    /** Starts the thread. */
    void start() {
        thread.start();
    }

    /**
     * Any thread: drive the crosstalk point soon (a stream opened or woke up); no effect before
     * {@link #start}, nor while the runtime in force (as of the last tick) has no crosstalk point,
     * when there is nothing to recompute (a reader would otherwise wake this thread per request).
     */
    void wake() {
        if (crosstalk.hasPoint()) {
            LockSupport.unpark(thread);
        }
    }

    /** Stops the thread and waits up to two seconds for it to end. */
    void stop() {
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void loop() {
        while (running) {
            turn();
            LockSupport.parkNanos(Math.max(0, nextTick - clock.nanoTime()));
        }
    }

    /**
     * One turn of the loop: the tick when it is due, otherwise an early crosstalk recomputation when
     * one may run. TICKER THREAD, or the caller's thread when the thread was never started (tests
     * that drive a manual clock).
     */
    void turn() {
        try {
            long now = clock.nanoTime();
            IsolationRuntime rt = runtime.get();
            if (now - nextTick >= 0) {
                nextTick = now + TICK_NANOS;
                if (++ticks % 20 == 0) {
                    objectives.evaluate(); // once a second
                }
                local.sample();
                rt.tick(now);
                reporter.setOverloaded(rt.advertisesOverload(now));
                reporter.setPoisonEpisode(rt.inPoisonEpisode());
                crosstalk.drive(rt, now);
                lastCrosstalk = now;
                if (ticks % 10 == 0) {
                    publishViews.accept(now);
                }
            } else if (now - lastCrosstalk >= EARLY_CROSSTALK_NANOS) {
                // Woken by the transport: a stream opened or became active. Budgets and buffers
                // follow at once (at most every EARLY_CROSSTALK_NANOS), the rest at the next tick.
                crosstalk.drive(rt, now);
                lastCrosstalk = now;
            }
        } catch (RuntimeException e) {
            LOG.warn("irmi isolation tick failed", e);
        }
    }
}
