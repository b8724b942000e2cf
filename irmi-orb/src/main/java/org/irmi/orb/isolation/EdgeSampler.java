package org.irmi.orb.isolation;

import java.util.concurrent.atomic.LongAdder;

import org.irmi.monitors.Clock;
import org.irmi.monitors.EdgeSample;
import org.irmi.monitors.LocalResourceMonitor;
import org.irmi.monitors.LocalResourceSnapshot;

/**
 * What the poison point's edge detector weighs: completions per second and bytes allocated per
 * second since the last sample, with this node's CPU cores in use and GC time fraction.
 *
 * <p>THREADING: {@link #onCompletion} from dispatch threads (adders, wait-free); {@link #sample}
 * from one thread at a time (the runtime's edge sampling, on the ticker thread).
 */
final class EdgeSampler {

    private final Clock clock;
    private final LocalResourceMonitor local;
    // fed on dispatch threads, read by the sampler
    private final LongAdder completions = new LongAdder();
    private final LongAdder allocatedBytes = new LongAdder();
    // sampling thread only
    private long lastSampleNanos;
    private long lastCompletions;
    private long lastAllocated;

    /** The first sample covers the time from now. */
    EdgeSampler(Clock clock, LocalResourceMonitor local) {
        this.clock = clock;
        this.local = local;
        this.lastSampleNanos = clock.nanoTime();
    }

    /** One request completed, having allocated {@code allocatedBytes} (negative: not measured). */
    void onCompletion(long allocatedBytes) {
        completions.increment();
        this.allocatedBytes.add(Math.max(0, allocatedBytes));
    }

    /** @return the rates since the last sample (at least a millisecond is assumed to have passed) */
    EdgeSample sample() {
        long now = clock.nanoTime();
        long c = completions.sum();
        long a = allocatedBytes.sum();
        double seconds = Math.max(1e-3, (now - lastSampleNanos) / 1e9);
        LocalResourceSnapshot s = local.snapshot();
        EdgeSample sample = new EdgeSample(now, (c - lastCompletions) / seconds, s.processCpuCores(),
                s.gcTimeFraction(), (a - lastAllocated) / seconds);
        lastSampleNanos = now;
        lastCompletions = c;
        lastAllocated = a;
        return sample;
    }
}
