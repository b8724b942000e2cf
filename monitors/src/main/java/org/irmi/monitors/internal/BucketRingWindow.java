package org.irmi.monitors.internal;

import java.util.Objects;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.WriterReaderPhaser;
import org.irmi.monitors.Clock;
import org.irmi.monitors.SlidingWindow;
import org.irmi.sla.WindowConfig;
import org.irmi.monitors.WindowSnapshot;

/**
 * A {@link SlidingWindow} as a ring of time buckets with "subtract on evict".
 *
 * <p>Time is cut into epochs of {@code bucketNanos} counted from the window's creation. Recorders add
 * to one live bucket (LongAdder cells, so they do not contend on one cache line); when the epoch moves
 * on, the live bucket is frozen into the ring of {@code n} closed buckets, as plain numbers.
 *
 * <pre>
 *   window        = live bucket (epoch e) + closed buckets of epochs e-n+1 .. e-1
 *   closed totals = sum of the closed buckets in the window, kept by add on freeze, subtract on evict
 *   rotate to t   : publish a fresh live bucket, wait for in-flight writers of the old one (phaser
 *                   flip), freeze it into the ring if still in the window, evict every closed bucket
 *                   with epoch &lt;= t - n                                         O(n), once per bucket
 *   snapshot      : closed totals + live bucket                                   O(1)
 *   min / max     : over the closed buckets in the window and the live one        O(n)
 *   gap &gt;= n     : the same rotation evicts everything: a reset, not a walk over the gap
 * </pre>
 *
 * <p>No sample is lost or half-counted at a boundary: a recorder enters a
 * {@link WriterReaderPhaser} critical section around its add, and the rotator freezes the old bucket
 * only after {@code flipPhase()} has seen every recorder that could still be adding to it leave.
 *
 * <p>THREAD-SAFE. {@link #record(long)} is WAIT-FREE (two atomic increments of the phaser plus the
 * adds) except for the recorder that first sees a new epoch: it rotates under the phaser's reader
 * lock, doing O(n) work. Snapshots take the same lock.
 */
public final class BucketRingWindow implements SlidingWindow {

    private static final long NO_EPOCH = Long.MIN_VALUE;

    private final WindowConfig config;
    private final Clock clock;
    private final int n;
    private final long bucketNanos;
    private final long originNanos;
    private final WriterReaderPhaser phaser = new WriterReaderPhaser();

    /** The bucket recorders add to. Replaced only under the phaser's reader lock. */
    private volatile LiveBucket live;
    /** The previous live bucket, quiescent after its flip, reused as the next live one. Reader lock. */
    private LiveBucket spare;

    // Closed ring, guarded by the phaser's reader lock. Slot of epoch e: e mod n.
    private final long[] closedEpoch;
    private final long[] closedCountBy;
    private final long[] closedSumBy;
    private final long[] closedMinBy;
    private final long[] closedMaxBy;
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
        this.closedEpoch = new long[n];
        this.closedCountBy = new long[n];
        this.closedSumBy = new long[n];
        this.closedMinBy = new long[n];
        this.closedMaxBy = new long[n];
        java.util.Arrays.fill(closedEpoch, NO_EPOCH);
        this.live = new LiveBucket();
        this.live.clear(0);
        this.spare = new LiveBucket();
    }

    @Override
    public void record(long value) {
        recordAt(clock.nanoTime(), value);
    }

    @Override
    public void recordAt(long nowNanos, long value) {
        long epoch = epochOf(nowNanos);
        while (true) {
            long token = phaser.writerCriticalSectionEnter();
            try {
                LiveBucket b = live;
                if (epoch <= b.epoch) {
                    // epoch < b.epoch: this thread read the clock just before another rotated; the
                    // sample goes into the live bucket, one bucket late, rather than being lost.
                    b.count.increment();
                    b.sum.add(value);
                    b.min.accumulate(value);
                    b.max.accumulate(value);
                    return;
                }
            } finally {
                phaser.writerCriticalSectionExit(token);
            }
            rotate(epoch);
        }
    }

    @Override
    public void add(long count, long sum) {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0, was " + count);
        }
        long epoch = epochOf(clock.nanoTime());
        while (true) {
            long token = phaser.writerCriticalSectionEnter();
            try {
                LiveBucket b = live;
                if (epoch <= b.epoch) {
                    b.count.add(count);
                    b.sum.add(sum);
                    return;
                }
            } finally {
                phaser.writerCriticalSectionExit(token);
            }
            rotate(epoch);
        }
    }

    @Override
    public WindowSnapshot snapshot() {
        phaser.readerLock();
        try {
            long now = clock.nanoTime();
            advanceTo(epochOf(now));
            LiveBucket b = live;
            long count = closedCount + b.count.sum();
            long sum = closedSum + b.sum.sum();
            long min = b.min.get();
            long max = b.max.get();
            for (int i = 0; i < n; i++) {
                if (closedEpoch[i] != NO_EPOCH) {
                    min = Math.min(min, closedMinBy[i]);
                    max = Math.max(max, closedMaxBy[i]);
                }
            }
            if (min == Long.MAX_VALUE) {
                min = 0;
                max = 0;
            }
            long elapsedInLive = Math.max(0L, now - (originNanos + b.epoch * bucketNanos));
            long covered = Math.min(b.epoch, n - 1) * bucketNanos + elapsedInLive;
            return new WindowSnapshot(count, sum, min, max, covered);
        } finally {
            phaser.readerUnlock();
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
        phaser.readerLock();
        try {
            advanceTo(epochOf(clock.nanoTime()));
            long count = live.count.sum();
            long sum = live.sum.sum();
            long lowest = live.epoch - n;
            for (int i = 0; i < n; i++) {
                if (closedEpoch[i] != NO_EPOCH && closedEpoch[i] > lowest) {
                    count += closedCountBy[i];
                    sum += closedSumBy[i];
                }
            }
            return new long[] {count, sum};
        } finally {
            phaser.readerUnlock();
        }
    }

    private void rotate(long epoch) {
        phaser.readerLock();
        try {
            advanceTo(epoch);
        } finally {
            phaser.readerUnlock();
        }
    }

    /** Makes {@code target} the live epoch. Caller holds the phaser's reader lock. */
    private void advanceTo(long target) {
        LiveBucket old = live;
        if (target <= old.epoch) {
            return;
        }
        LiveBucket fresh = spare;
        fresh.clear(target);
        live = fresh;
        // Wait until every writer that may have read the old live bucket has left it.
        phaser.flipPhase();
        // Evict closed buckets that left the window: everything at or below target - n.
        long lowest = target - n;
        for (int i = 0; i < n; i++) {
            if (closedEpoch[i] != NO_EPOCH && closedEpoch[i] <= lowest) {
                closedCount -= closedCountBy[i];
                closedSum -= closedSumBy[i];
                closedEpoch[i] = NO_EPOCH;
            }
        }
        if (old.epoch > lowest) {
            int slot = (int) (old.epoch % n);
            // The slot held epoch old.epoch - n at most, which was evicted above.
            closedEpoch[slot] = old.epoch;
            closedCountBy[slot] = old.count.sum();
            closedSumBy[slot] = old.sum.sum();
            closedMinBy[slot] = old.min.get();
            closedMaxBy[slot] = old.max.get();
            closedCount += closedCountBy[slot];
            closedSum += closedSumBy[slot];
        }
        spare = old;
    }

    private long epochOf(long nowNanos) {
        long elapsed = nowNanos - originNanos;
        return elapsed <= 0 ? 0 : elapsed / bucketNanos;
    }

    @Override
    public String toString() {
        return "BucketRingWindow[" + config + "]";
    }

    /** The bucket recorders add to; its epoch is set before it is published. */
    private static final class LiveBucket {
        final LongAdder count = new LongAdder();
        final LongAdder sum = new LongAdder();
        final LongAccumulator min = new LongAccumulator(Math::min, Long.MAX_VALUE);
        final LongAccumulator max = new LongAccumulator(Math::max, Long.MIN_VALUE);
        volatile long epoch;

        void clear(long newEpoch) {
            count.reset();
            sum.reset();
            min.reset();
            max.reset();
            epoch = newEpoch;
        }
    }
}
