package org.irmi.orb.internal;

import java.util.concurrent.atomic.LongAdder;

/**
 * Collects the sampled requests' CPU and active times for {@link CoreLimit}: servant threads add
 * without waiting, the selector's sweep hands the sums on and subtracts what it used.
 *
 * <p>THREADING: {@link #record} from any thread; {@link #drainInto} from one (the sweep).
 */
final class CoreSamples {

    private final LongAdder activeNanos = new LongAdder();
    private final LongAdder cpuNanos = new LongAdder();
    private final LongAdder samples = new LongAdder();

    /**
     * One sampled request: {@code activeNanos} from its start to its end minus its time waiting for
     * a core, {@code cpuNanos} its time on a core. Any thread.
     */
    void record(long activeNanos, long cpuNanos) {
        this.activeNanos.add(Math.max(0, activeNanos));
        this.cpuNanos.add(Math.max(0, cpuNanos));
        samples.increment();
    }

    /** Hands the sums to {@code limit}; what it used is subtracted, what it did not use stays for the next window. */
    void drainInto(CoreLimit limit) {
        long n = samples.sum();
        long active = activeNanos.sum();
        long cpu = cpuNanos.sum();
        if (limit.onWindow(active, cpu, (int) Math.min(Integer.MAX_VALUE, n))) {
            samples.add(-n);
            activeNanos.add(-active);
            cpuNanos.add(-cpu);
        }
    }
}
