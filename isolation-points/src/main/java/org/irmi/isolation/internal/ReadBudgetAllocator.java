package org.irmi.isolation.internal;

import java.util.ArrayList;
import java.util.List;
import org.irmi.isolation.CrosstalkConfig;

/**
 * Turns the weights of the active streams into per-connection read budgets and receive buffers.
 * Pure.
 *
 * <pre>
 *   n        = number of active streams,  W = sum of their weights
 *   budget_i = clamp(round(baseReadBudgetBytes * n * w_i / W), minReadBudgetBytes, maxReadBudgetBytes)
 *   rcvbuf_i = clamp(budget_i, minReceiveBufferBytes, maxReceiveBufferBytes)
 * </pre>
 * When every active stream has at least its budget waiting, one selector turn reads budget_i from
 * each, so stream i's share of read bytes is w_i / W (up to the clamps). As streams come and go, W
 * changes and every budget follows.
 */
public final class ReadBudgetAllocator {
    private ReadBudgetAllocator() {
    }

    /** One active stream: its connection and its weight. */
    public record Stream(long connectionId, double weight) {
    }

    /** The budget and receive buffer for one connection. */
    public record Budget(long connectionId, int readBudgetBytes, int receiveBufferBytes) {
    }

    public static List<Budget> allocate(List<Stream> active, CrosstalkConfig c) {
        double total = 0;
        for (Stream s : active) {
            total += s.weight();
        }
        int n = active.size();
        List<Budget> out = new ArrayList<>(n);
        for (Stream s : active) {
            long budget = Math.round(c.baseReadBudgetBytes() * (double) n * s.weight() / total);
            budget = Math.max(c.minReadBudgetBytes(), Math.min(c.maxReadBudgetBytes(), budget));
            long rcv = Math.max(c.minReceiveBufferBytes(),
                    Math.min(c.maxReceiveBufferBytes(), budget));
            out.add(new Budget(s.connectionId(), (int) budget, (int) rcv));
        }
        return out;
    }
}
