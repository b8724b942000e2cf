package org.irmi.isolation.internal;


import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.irmi.isolation.Decision;
import org.irmi.isolation.DecisionEvent;
import org.irmi.isolation.DecisionListener;
import org.irmi.isolation.Evidence;
import org.irmi.isolation.PointKind;
import org.irmi.monitors.StreamKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes decision events to listeners and the log, and counts them per point and action.
 * Counting is a {@link LongAdder} increment; the Micrometer counters read nothing on the hot path:
 * they are function counters over the adders, bound once by {@link #bindTo}. Tags are bounded:
 * {@code point} (3 values) x {@code action} (7 values).
 *
 * <p>Logging is bounded: at most one line per point and action per second (a triggered point may
 * decide thousands of calls a second); the next line says how many were not logged. Listeners
 * and counters see every event.
 *
 * <p>THREAD SAFETY: all methods may be called from any thread.
 */
public final class DecisionRecorder implements MeterBinder {
    private static final Logger LOG = LoggerFactory.getLogger("irmi.decision");
    private final LongAdder[][] counts =
            new LongAdder[PointKind.values().length][Decision.Action.values().length];
    private final List<DecisionListener> listeners = new CopyOnWriteArrayList<>();
    private final LongSupplier wallClockMillis;
    private final java.util.concurrent.atomic.AtomicLongArray nextLogMillis =
            new java.util.concurrent.atomic.AtomicLongArray(
                    PointKind.values().length * Decision.Action.values().length);
    private final java.util.concurrent.atomic.AtomicLongArray suppressed =
            new java.util.concurrent.atomic.AtomicLongArray(
                    PointKind.values().length * Decision.Action.values().length);

    /** @param wallClockMillis wall time for event timestamps */
    public DecisionRecorder(LongSupplier wallClockMillis) {
        this.wallClockMillis = wallClockMillis;
        for (LongAdder[] row : counts) {
            for (int i = 0; i < row.length; i++) {
                row[i] = new LongAdder();
            }
        }
    }

    /** Adds a listener that receives every event. */
    public void addListener(DecisionListener listener) {
        listeners.add(listener);
    }

    /** Counts a plain proceed (no event, no log: the hot path). */
    public void countProceed(PointKind point) {
        counts[point.ordinal()][Decision.Action.PROCEED.ordinal()].increment();
    }

    /** Counts, logs and publishes one decision. */
    public DecisionEvent record(PointKind point, StreamKey stream, String module, Decision decision,
                                Evidence evidence) {
        counts[point.ordinal()][decision.action().ordinal()].increment();
        DecisionEvent event = new DecisionEvent(point, stream, module, decision, evidence,
                wallClockMillis.getAsLong());
        int slot = point.ordinal() * Decision.Action.values().length + decision.action().ordinal();
        long now = event.wallTimeMillis();
        long next = nextLogMillis.get(slot);
        if (now >= next && nextLogMillis.compareAndSet(slot, next, now + 1000)) {
            long skipped = suppressed.getAndSet(slot, 0);
            String line = skipped == 0 ? event.toLogLine()
                    : event.toLogLine() + " (" + skipped + " more in the last second, not logged)";
            if (decision.action() == Decision.Action.PROCEED) {
                LOG.debug("{}", line);
            } else {
                LOG.info("{}", line);
            }
        } else {
            suppressed.incrementAndGet(slot);
        }
        for (DecisionListener l : listeners) {
            try {
                l.onDecision(event);
            } catch (RuntimeException e) {
                LOG.warn("decision listener {} failed", l, e);
            }
        }
        return event;
    }

    /** @return how many decisions of that kind the point made. */
    public long count(PointKind point, Decision.Action action) {
        return counts[point.ordinal()][action.ordinal()].sum();
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (PointKind p : PointKind.values()) {
            for (Decision.Action a : Decision.Action.values()) {
                LongAdder adder = counts[p.ordinal()][a.ordinal()];
                io.micrometer.core.instrument.FunctionCounter.builder("irmi.isolation.decisions",
                                adder, LongAdder::doubleValue)
                        .description("Decisions enforced by an isolation point, by action")
                        .baseUnit("decisions")
                        .tag("point", p.metricName())
                        .tag("action", a.metricName())
                        .register(registry);
            }
        }
    }

}
