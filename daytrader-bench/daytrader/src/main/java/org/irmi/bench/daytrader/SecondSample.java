package org.irmi.bench.daytrader;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * One wall-clock second of a tier's time series: the epoch second it covers, the garbage
 * collections that ended in it (count and milliseconds, all collectors), the heap used at its end,
 * and one {@link OperationSecond} per operation that completed at least one call in it.
 */
public final class SecondSample implements Serializable {
    private static final long serialVersionUID = 1L;

    private final long epochSecond;
    private final long gcCount;
    private final long gcMillis;
    private final long heapUsedBytes;
    private final ArrayList<OperationSecond> operations;

    public SecondSample(long epochSecond, long gcCount, long gcMillis, long heapUsedBytes,
                        List<OperationSecond> operations) {
        this.epochSecond = epochSecond;
        this.gcCount = gcCount;
        this.gcMillis = gcMillis;
        this.heapUsedBytes = heapUsedBytes;
        this.operations = new ArrayList<>(operations);
    }

    public long getEpochSecond() { return epochSecond; }
    public long getGcCount() { return gcCount; }
    public long getGcMillis() { return gcMillis; }
    public long getHeapUsedBytes() { return heapUsedBytes; }
    public List<OperationSecond> getOperations() { return operations; }

    /** Calls completed in this second over all operations. */
    public long getTotalCount() {
        long total = 0;
        for (OperationSecond o : operations) {
            total += o.getCount();
        }
        return total;
    }
}
