package org.irmi.monitors.internal;

import java.util.Objects;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

import org.irmi.monitors.Clock;
import org.irmi.monitors.SlidingWindow;
import org.irmi.monitors.WindowConfig;
import org.irmi.monitors.WindowSnapshot;

/**
 * A {@link SlidingWindow} as a ring of time buckets with "subtract on evict".
 *
 * <p>Time is cut into epochs of {@code bucketNanos} counted from the window's creation. The ring holds
 * {@code n} buckets; epoch {@code e} lives in slot {@code e mod n}. The live bucket is the one of the
 * current epoch; the other {@code n - 1} slots hold the closed epochs {@code e-n+1 .. e-1}.
 *
 * <pre>
 *   closed totals  = sum of the frozen values of the closed buckets in the window
 *   moving to e+1  : freeze bucket e, closed += frozen(e); closed -= frozen(e+1-n); reset slot
 *   snapshot       : closed totals + live bucket                                   O(1)
 *   min / max      : min/max over frozen buckets in the window and the live one    O(n)
 *   gap &gt;= n      : reset everything instead of stepping through the buckets
 * </pre>
 *
 * <p>A closed bucket subtracts exactly the values it added when it was frozen, so totals never drift
 * even if a racing recorder adds to a bucket after it was frozen (that late sample is dropped; at most
 * the samples in flight at a bucket boundary are).
 *
 * <p>THREAD-SAFE. Recording is LOCK-FREE (LongAdder / LongAccumulator cells) except for the recorder
 * that first sees a new epoch: it rotates the ring under {@code rotationLock}, doing at most
 * O(n) work. Snapshots take the same lock.
 */
public final class BucketRingWindow implements SlidingWindow {

    private static final long NO_EPOCH = -1L;

    private final WindowConfig config;
    private final Clock clock;
    private final int n;
    private final long bucketNanos;
    private final long originNanos;
    private final Bucket[] ring;
    private final Object rotationLock = new Object();

    /** Epoch of the live bucket. Written under rotationLock, read by recorders without it. */
    private volatile long currentEpoch;

    /** Sums of the frozen buckets in the window. Guarded by rotationLock. */
    private long closedCount;
    private long closedSum;

    /**
     * @param config window shape
     * @param clock  time source
     */
    public BucketRingWindow(WindowConfig config, Clock clock) {
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.n = config.buckets();
        this.bucketNanos = config.bucketNanos();
        this.originNanos = clock.nanoTime();
        this.ring = new Bucket[n];
        for (int i = 0; i < n; i++) {
            ring[i] = new Bucket();
        }
        ring[0].epoch = 0;
        this.currentEpoch = 0;
    }

    @Override
    public void record(long value) {
        recordAt(clock.nanoTime(), value);
    }

    @Override
    public void recordAt(long nowNanos, long value) {
        Bucket b = liveBucket(nowNanos);
        b.count.increment();
        b.sum.add(value);
        b.min.accumulate(value);
        b.max.accumulate(value);
    }

    @Override
    public void add(long count, long sum) {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0, was " + count);
        }
        Bucket b = liveBucket(clock.nanoTime());
        b.count.add(count);
        b.sum.add(sum);
    }

    @Override
    public WindowSnapshot snapshot() {
        synchronized (rotationLock) {
            long now = clock.nanoTime();
            long epoch = epochOf(now);
            advanceTo(epoch);
            long cur = currentEpoch;
            Bucket live = ring[slot(cur)];
            long count = closedCount + live.count.sum();
            long sum = closedSum + live.sum.sum();
            long min = live.min.get();
            long max = live.max.get();
            for (Bucket b : ring) {
                if (b != live && b.frozen && b.epoch > cur - n && b.epoch < cur) {
                    min = Math.min(min, b.frozenMin);
                    max = Math.max(max, b.frozenMax);
                }
            }
            if (min == Long.MAX_VALUE) {
                min = 0;
                max = 0;
            }
            long elapsedInLive = Math.max(0L, now - (originNanos + cur * bucketNanos));
            long covered = Math.min(cur, n - 1) * bucketNanos + elapsedInLive;
            return new WindowSnapshot(count, sum, min, max, covered);
        }
    }

    @Override
    public WindowConfig config() {
        return config;
    }

    /**
     * Recomputes count and sum by walking the buckets, for invariant tests: must always equal what
     * {@link #snapshot()} reports from its running totals. O(n).
     *
     * @return {count, sum}
     */
    long[] recomputeTotals() {
        synchronized (rotationLock) {
            advanceTo(epochOf(clock.nanoTime()));
            long cur = currentEpoch;
            long count = 0;
            long sum = 0;
            for (Bucket b : ring) {
                if (b.epoch == cur) {
                    count += b.count.sum();
                    sum += b.sum.sum();
                } else if (b.frozen && b.epoch > cur - n && b.epoch < cur) {
                    count += b.frozenCount;
                    sum += b.frozenSum;
                }
            }
            return new long[] {count, sum};
        }
    }

    private Bucket liveBucket(long now) {
        long epoch = epochOf(now);
        long cur = currentEpoch;
        if (epoch > cur) {
            synchronized (rotationLock) {
                advanceTo(epoch);
                cur = currentEpoch;
            }
        }
        // epoch < cur happens when this thread read the clock just before another rotated: the
        // sample goes into the live bucket, one bucket late, rather than into a closed one.
        return ring[slot(cur)];
    }

    /** Moves the live bucket to {@code target}. Caller holds rotationLock. */
    private void advanceTo(long target) {
        long cur = currentEpoch;
        if (target <= cur) {
            return;
        }
        if (target - cur >= n) {
            // Idle for a whole window or more: everything is evicted; reset instead of stepping.
            for (Bucket b : ring) {
                b.clear(NO_EPOCH);
            }
            closedCount = 0;
            closedSum = 0;
            ring[slot(target)].clear(target);
            currentEpoch = target;
            return;
        }
        for (long e = cur + 1; e <= target; e++) {
            Bucket closing = ring[slot(e - 1)];
            closing.freeze();
            closedCount += closing.frozenCount;
            closedSum += closing.frozenSum;
            Bucket next = ring[slot(e)];
            if (next.frozen) {
                // next held epoch e - n (or, with one bucket, the one just closed): it leaves the window.
                closedCount -= next.frozenCount;
                closedSum -= next.frozenSum;
            }
            next.clear(e);
        }
        currentEpoch = target;
    }

    private long epochOf(long nowNanos) {
        long elapsed = nowNanos - originNanos;
        return elapsed <= 0 ? 0 : elapsed / bucketNanos;
    }

    private int slot(long epoch) {
        return (int) (epoch % n);
    }

    @Override
    public String toString() {
        return "BucketRingWindow[" + config + "]";
    }

    /** One bucket. Live fields are written by recorders; frozen fields only under rotationLock. */
    private static final class Bucket {
        final LongAdder count = new LongAdder();
        final LongAdder sum = new LongAdder();
        final LongAccumulator min = new LongAccumulator(Math::min, Long.MAX_VALUE);
        final LongAccumulator max = new LongAccumulator(Math::max, Long.MIN_VALUE);
        long epoch = NO_EPOCH;
        boolean frozen;
        long frozenCount;
        long frozenSum;
        long frozenMin;
        long frozenMax;

        void freeze() {
            frozenCount = count.sum();
            frozenSum = sum.sum();
            frozenMin = min.get();
            frozenMax = max.get();
            frozen = true;
        }

        void clear(long newEpoch) {
            count.reset();
            sum.reset();
            min.reset();
            max.reset();
            frozen = false;
            frozenCount = 0;
            frozenSum = 0;
            epoch = newEpoch;
        }
    }
}
