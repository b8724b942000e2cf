package org.irmi.isolation.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * The cost accumulated by one signature: requests, CPU and allocation. The ORB may sample CPU time
 * (a request whose CPU was not read reports a negative {@code cpu}); the CPU total is then
 * estimated as the mean of the measured requests times all requests. Allocation is summed as
 * reported.
 *
 * <p>THREADING: {@link #add} from dispatch threads, concurrently (adders); {@link #totals} from any
 * thread, a snapshot that may miss requests being added.
 */
final class SignatureCost {
    private final LongAdder requests = new LongAdder();
    private final LongAdder cpuMeasured = new LongAdder();
    private final LongAdder cpuNanos = new LongAdder();
    private final LongAdder allocatedBytes = new LongAdder();
    private final LongAccumulator maxCpuNanos = new LongAccumulator(Math::max, 0);
    private final LongAccumulator maxAllocatedBytes = new LongAccumulator(Math::max, 0);

    /**
     * One completed request.
     *
     * @param cpu   its CPU nanoseconds, negative when not measured
     * @param alloc its allocated bytes, counted when positive
     */
    void add(long cpu, long alloc) {
        requests.increment();
        if (cpu >= 0) {
            cpuMeasured.increment();
            cpuNanos.add(cpu);
            maxCpuNanos.accumulate(cpu);
        }
        if (alloc > 0) {
            allocatedBytes.add(alloc);
            maxAllocatedBytes.accumulate(alloc);
        }
    }

    /** @return the totals, with the CPU of unmeasured requests estimated, and the largest measured request's costs */
    CostTotals totals() {
        long n = requests.sum();
        long measured = cpuMeasured.sum();
        long cpu = cpuNanos.sum();
        long estimated = measured == 0 || measured >= n ? cpu : Math.round((double) cpu * n / measured);
        return new CostTotals(n, estimated, allocatedBytes.sum(), maxCpuNanos.get(), maxAllocatedBytes.get());
    }

    /** @return the totals of each signature of {@code costs} (empty for null) */
    static Map<String, CostTotals> totals(Map<String, SignatureCost> costs) {
        Map<String, CostTotals> out = new HashMap<>();
        if (costs != null) {
            costs.forEach((k, c) -> out.put(k, c.totals()));
        }
        return out;
    }
}
