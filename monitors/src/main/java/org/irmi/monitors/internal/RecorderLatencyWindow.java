package org.irmi.monitors.internal;

import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.irmi.monitors.Clock;
import org.irmi.monitors.LatencySnapshot;
import org.irmi.monitors.LatencyWindow;
import org.irmi.sla.WindowConfig;

/**
 * {@link LatencyWindow} on an HdrHistogram {@link Recorder} and a ring of bucket histograms.
 *
 * <pre>
 *   drain   : interval = recorder.getIntervalHistogram(spare); live += interval; spare = interval
 *   rotate  : total += live (closing); total -= slot(e+1) if it holds epoch e+1-n; clear slot
 *   snapshot: drain, rotate to now, copy(total) + live, read percentiles
 * </pre>
 *
 * <p>Recycling: exactly one interval histogram is ever handed back to the recorder, and the
 * reference is dropped ({@code spare = null}) before it is handed back, so one histogram is never
 * recycled twice. All reader state is guarded by {@code lock}.
 *
 * <p>THREAD-SAFE: recorders never wait (a rotation is only tried with {@code tryLock}); readers
 * serialise on {@code lock}.
 */
public final class RecorderLatencyWindow implements LatencyWindow {

    private static final int DIGITS = 2;
    private static final long NO_EPOCH = -1L;

    private final WindowConfig config;
    private final Clock clock;
    private final int n;
    private final long bucketNanos;
    private final long originNanos;
    private final Recorder recorder = new Recorder(HIGHEST_TRACKABLE_NANOS, DIGITS);
    private final ReentrantLock lock = new ReentrantLock();

    // Guarded by lock.
    private final Histogram[] ring;
    private final long[] epochs;
    private final Histogram total = newHistogram();
    private final Histogram scratch = newHistogram(); // reused by snapshots: no 35 KB copy per snapshot
    private Histogram spare;
    private long currentEpoch;

    /** Start of the next bucket, nanoseconds; recorders compare against it to try a rotation. */
    private volatile long nextBoundaryNanos;

    /**
     * @param config window shape
     * @param clock  time source
     */
    public RecorderLatencyWindow(WindowConfig config, Clock clock) {
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.n = config.buckets();
        this.bucketNanos = config.bucketNanos();
        this.originNanos = clock.nanoTime();
        this.ring = new Histogram[n];
        this.epochs = new long[n];
        for (int i = 0; i < n; i++) {
            ring[i] = newHistogram();
            epochs[i] = NO_EPOCH;
        }
        epochs[0] = 0;
        this.nextBoundaryNanos = originNanos + bucketNanos;
    }

    @Override
    public void recordNanos(long nanos) {
        long now = clock.nanoTime();
        if (now >= nextBoundaryNanos && lock.tryLock()) {
            // Rotate before recording, so that old samples are not pushed into the new bucket.
            try {
                drainAndAdvance(now);
            } finally {
                lock.unlock();
            }
        }
        recorder.recordValue(Math.min(Math.max(nanos, 0L), HIGHEST_TRACKABLE_NANOS));
    }

    @Override
    public LatencySnapshot snapshot() {
        lock.lock();
        try {
            drainAndAdvance(clock.nanoTime());
            Histogram h = scratch;
            h.reset();
            h.add(total);
            h.add(ring[slot(currentEpoch)]);
            long count = h.getTotalCount();
            if (count == 0) {
                return LatencySnapshot.EMPTY;
            }
            return new LatencySnapshot(count, h.getMinValue(), h.getMean(),
                    h.getValueAtPercentile(50), h.getValueAtPercentile(90), h.getValueAtPercentile(99),
                    h.getValueAtPercentile(99.9), h.getMaxValue());
        } finally {
            lock.unlock();
        }
    }

    @Override
    public WindowConfig config() {
        return config;
    }

    /** Caller holds lock. */
    private void drainAndAdvance(long now) {
        Histogram interval = recorder.getIntervalHistogram(spare);
        spare = null; // handed to the recorder above: never hand it back a second time
        // Recorders try to rotate as soon as they cross a boundary, so this interval's samples were
        // recorded during the live bucket's epoch: account them there before moving on.
        ring[slot(currentEpoch)].add(interval);
        spare = interval;
        advanceTo(epochOf(now));
        nextBoundaryNanos = originNanos + (currentEpoch + 1) * bucketNanos;
    }

    /** Caller holds lock. */
    private void advanceTo(long target) {
        long cur = currentEpoch;
        if (target <= cur) {
            return;
        }
        if (target - cur >= n) {
            for (int i = 0; i < n; i++) {
                ring[i].reset();
                epochs[i] = NO_EPOCH;
            }
            total.reset();
            epochs[slot(target)] = target;
            currentEpoch = target;
            return;
        }
        for (long e = cur + 1; e <= target; e++) {
            int closing = slot(e - 1);
            total.add(ring[closing]);
            int next = slot(e);
            if (epochs[next] != NO_EPOCH) {
                total.subtract(ring[next]);
            }
            ring[next].reset();
            epochs[next] = e;
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

    private static Histogram newHistogram() {
        return new Histogram(1, HIGHEST_TRACKABLE_NANOS, DIGITS);
    }

    @Override
    public String toString() {
        return "RecorderLatencyWindow[" + config + "]";
    }
}
