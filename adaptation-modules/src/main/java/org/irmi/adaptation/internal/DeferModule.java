package org.irmi.adaptation.internal;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.irmi.isolation.AdaptationModule;
import org.irmi.isolation.Decision;
import org.irmi.isolation.MinorCodes;
import org.irmi.sla.SystemExceptionKind;
import org.irmi.isolation.Trigger;
import org.irmi.sla.DeferConfig.WhenFull;

/**
 * Module {@code defer}: a flagged call is parked in a bounded {@link DeferQueue} and resubmitted
 * later. Every {@code retryDelay} a tick releases the parked calls (they proceed, without being
 * decided again) if the point flagged no new call since the last tick; otherwise each counts a
 * retry and is rejected ({@code TRANSIENT}, {@link MinorCodes#DEFER_TIMEOUT}) past {@code
 * maxRetries}. When the queue is full the SLA's {@code whenFull} applies: {@code reject} (the new
 * call gets {@code TRANSIENT}, {@link MinorCodes#DEFER_QUEUE_FULL}), {@code drop-oldest} (the
 * oldest parked call gets that rejection instead) or {@code short-circuit} (the new call completes
 * locally with the default result).
 *
 * <p>Parking means the calling thread waits ({@link Decision.Defer}): the client hook enforces it;
 * on a server reader thread it becomes a reject. The ticks run on a daemon scheduler of the module
 * unless built with {@code manualTick}, for tests and embedding, where {@link #tick} is called by
 * the owner.
 */
public final class DeferModule implements AdaptationModule, AutoCloseable {
    public static final String NAME = org.irmi.sla.ModuleConfig.DEFER;
    private final DeferQueue queue;
    private final long retryDelayNanos;
    private final long maxWaitNanos;
    private final ScheduledExecutorService scheduler;
    private final LongSupplier nanoClock;
    private volatile long lastFlaggedNanos = Long.MIN_VALUE;
    private long lastTickNanos = Long.MIN_VALUE;

    public DeferModule(int capacity, long retryDelayNanos, int maxRetries,
                       WhenFull whenFull, boolean manualTick, LongSupplier nanoClock) {
        this.queue = new DeferQueue(capacity, maxRetries, whenFull);
        this.retryDelayNanos = retryDelayNanos;
        this.maxWaitNanos = retryDelayNanos * (maxRetries + 2L);
        this.nanoClock = nanoClock;
        if (manualTick) {
            scheduler = null;
        } else {
            scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "irmi-defer");
                t.setDaemon(true);
                return t;
            });
            scheduler.scheduleWithFixedDelay(() -> tick(nanoClock.getAsLong()), retryDelayNanos,
                    retryDelayNanos, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Decision decide(Trigger trigger) {
        lastFlaggedNanos = trigger.nowNanos();
        DeferQueue.Ticket t = queue.offer();
        if (t == null) {
            if (queue.whenFull() == WhenFull.SHORT_CIRCUIT) {
                return new Decision.ShortCircuit(null);
            }
            return Decision.reject(SystemExceptionKind.TRANSIENT, MinorCodes.DEFER_QUEUE_FULL,
                    "defer queue full (" + trigger.operation() + ")");
        }
        return new Decision.Defer(t.release(), maxWaitNanos, () -> queue.cancel(t));
    }

    /** One tick at {@code nowNanos}: releases or retries the parked calls. */
    public void tick(long nowNanos) {
        boolean flagging;
        synchronized (this) {
            flagging = lastTickNanos != Long.MIN_VALUE && lastFlaggedNanos >= lastTickNanos;
            if (lastTickNanos == Long.MIN_VALUE) {
                flagging = lastFlaggedNanos != Long.MIN_VALUE;
            }
            lastTickNanos = nowNanos;
        }
        queue.onTick(flagging);
    }

    /** @return the queue, for tests and metrics. */
    public DeferQueue queue() {
        return queue;
    }

    @Override
    public void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }
}
