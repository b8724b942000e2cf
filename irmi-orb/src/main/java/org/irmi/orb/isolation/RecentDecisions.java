package org.irmi.orb.isolation;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

import org.irmi.isolation.DecisionEvent;
import org.irmi.isolation.DecisionListener;

/**
 * The last {@link #CAPACITY} decision events of an ORB's isolation points, numbered, for the
 * dashboard's decision stream: a reader asks for what came after the last number it saw.
 *
 * <p>Recording is lock-free and bounded (a sequence increment and one array store), since a
 * triggered point may decide thousands of calls a second on the reader and caller threads; the
 * oldest events are overwritten. A reader that fell more than {@link #CAPACITY} behind misses the
 * ones in between and is told how many ({@link Page#missed}).
 *
 * <p>THREAD-SAFE: any thread records, any thread reads.
 */
public final class RecentDecisions implements DecisionListener {

    /** Events kept. */
    public static final int CAPACITY = 256;

    /** One event and its number (1 for the first since the ORB started). */
    public record Numbered(long seq, DecisionEvent event) {
    }

    /**
     * Events after a number, oldest first.
     *
     * @param events the events, at most the limit asked for
     * @param last   the number of the newest event recorded (0 before the first)
     * @param missed events after the number asked for that were overwritten before this read
     */
    public record Page(List<Numbered> events, long last, long missed) {
    }

    private final AtomicLong seq = new AtomicLong();
    private final AtomicReferenceArray<Numbered> ring = new AtomicReferenceArray<>(CAPACITY);

    @Override
    public void onDecision(DecisionEvent event) {
        long n = seq.incrementAndGet();
        ring.set((int) (n % CAPACITY), new Numbered(n, event));
    }

    /**
     * @param after  the last number already seen (0 for all kept)
     * @param limit  the most events to return, 1..{@link #CAPACITY}: the newest ones
     * @return the events numbered above {@code after}
     */
    public Page after(long after, int limit) {
        if (after < 0) {
            throw new IllegalArgumentException("after must be >= 0, was " + after);
        }
        if (limit < 1 || limit > CAPACITY) {
            throw new IllegalArgumentException("limit must be 1.." + CAPACITY + ", was " + limit);
        }
        long last = seq.get();
        long from = Math.max(after + 1, last - limit + 1);
        long oldestKept = Math.max(1, last - CAPACITY + 1);
        long missed = Math.max(0, oldestKept - (after + 1));
        List<Numbered> out = new ArrayList<>();
        for (long n = Math.max(from, oldestKept); n <= last; n++) {
            Numbered e = ring.get((int) (n % CAPACITY));
            if (e != null && e.seq() == n) { // else overwritten meanwhile, or not stored yet
                out.add(e);
            }
        }
        return new Page(List.copyOf(out), last, missed);
    }
}
