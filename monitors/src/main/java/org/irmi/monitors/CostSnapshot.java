package org.irmi.monitors;

/**
 * Per-request cost over a window, for one operation, one stream, or all requests.
 *
 * @param requests                 requests measured in the window
 * @param requestsPerSecond        measured requests per second
 * @param cpuNanosMean             mean CPU time per request, nanoseconds
 * @param cpuNanosMax              largest CPU time of one request, nanoseconds
 * @param cpuNanosPerSecond        CPU time per second spent in these requests, nanoseconds/s
 * @param allocatedBytesMean       mean bytes allocated per request
 * @param allocatedBytesMax        most bytes allocated by one request
 * @param allocatedBytesPerSecond  bytes allocated per second by these requests
 */
public record CostSnapshot(long requests, double requestsPerSecond, double cpuNanosMean, long cpuNanosMax,
                           double cpuNanosPerSecond, double allocatedBytesMean, long allocatedBytesMax,
                           double allocatedBytesPerSecond) {

    /** No requests. */
    public static final CostSnapshot EMPTY = new CostSnapshot(0, 0, 0, 0, 0, 0, 0, 0);

    /**
     * Combines a CPU window (the requests whose CPU time was measured) and an allocation window
     * (every request).
     *
     * @param cpu   CPU nanos per request
     * @param alloc bytes per request
     * @return the snapshot
     */
    public static CostSnapshot of(WindowSnapshot cpu, WindowSnapshot alloc) {
        // every request is in the allocation window; the CPU window may hold only the requests
        // whose CPU time was measured, so the CPU rate is their mean times all requests
        return new CostSnapshot(alloc.count(), alloc.ratePerSecond(), cpu.mean(), cpu.max(),
                cpu.count() == 0 ? 0 : cpu.mean() * alloc.ratePerSecond(), alloc.mean(), alloc.max(),
                alloc.sumPerSecond());
    }
}
