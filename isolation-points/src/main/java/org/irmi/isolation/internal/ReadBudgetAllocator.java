package org.irmi.isolation.internal;

import java.util.ArrayList;
import java.util.List;
import org.irmi.sla.CrosstalkConfig;

/**
 * Turns the weights of the active streams into per-connection read budgets and receive buffers.
 * Pure.
 *
 * <pre>
 *   n        = number of active streams,  W = sum of their weights
 *   budget_i = clamp(round(baseReadBudgetBytes * n * w_i / W), minReadBudgetBytes, maxReadBudgetBytes)
 *   rcvbuf_i = clamp(round(maxReceiveBufferBytes * w_i / w_max), minReceiveBufferBytes, maxReceiveBufferBytes)
 * </pre>
 * where w_max is the largest weight among the connections of the heaviest rule (with weights per
 * connection: the largest weight). The heaviest rule's streams (and a stream alone) get the largest
 * receive buffer and keep autotuning: the paper's
 * lever ("a larger buffer enables us to read more data per system call"), and what lets a large
 * request arrive at the speed of the network instead of one small TCP window per reader turn. A
 * buffer as small as the read budget throttled a lone 8 MB request to a quarter of plain JacORB's
 * speed, because setting {@code SO_RCVBUF} also turns off the kernel's receive-buffer autotuning.
 * Lighter streams get proportionally smaller buffers, never below the minimum.
 * When every active stream has at least its budget waiting, one selector turn reads budget_i from
 * each, so stream i's share of read bytes is w_i / W (up to the clamps). As streams come and go, W
 * changes and every budget follows.
 */
public final class ReadBudgetAllocator {
    private ReadBudgetAllocator() {
    }

    /**
     * One active stream: its connection, the weight it reads with, and the weight of its rule (the
     * same, unless the SLA shares a rule's weight among its connections: {@code weightPer: rule}).
     */
    public record Stream(long connectionId, double weight, double ruleWeight) {
        public Stream(long connectionId, double weight) {
            this(connectionId, weight, weight);
        }
    }

    /**
     * The budget and receive buffer for one connection; {@code autotune}: it belongs to the
     * heaviest rule and may keep the kernel's receive-buffer autotuning.
     */
    public record Budget(long connectionId, int readBudgetBytes, int receiveBufferBytes, boolean autotune) {
    }

    public static List<Budget> allocate(List<Stream> active, CrosstalkConfig c) {
        double total = 0;
        double heaviestRule = 0;
        for (Stream s : active) {
            total += s.weight();
            heaviestRule = Math.max(heaviestRule, s.ruleWeight());
        }
        // The buffers scale to the heaviest rule's connections: a lone connection of a light rule is
        // never the "heaviest" (left to autotuning) because the heavy rule's weight is shared.
        double heaviest = 0;
        for (Stream s : active) {
            if (s.ruleWeight() == heaviestRule) {
                heaviest = Math.max(heaviest, s.weight());
            }
        }
        int n = active.size();
        List<Budget> out = new ArrayList<>(n);
        for (Stream s : active) {
            long budget = Math.round(c.baseReadBudgetBytes() * (double) n * s.weight() / total);
            budget = Math.max(c.minReadBudgetBytes(), Math.min(c.maxReadBudgetBytes(), budget));
            long rcv = Math.round(c.maxReceiveBufferBytes() * s.weight() / heaviest);
            rcv = Math.max(c.minReceiveBufferBytes(), Math.min(c.maxReceiveBufferBytes(), rcv));
            out.add(new Budget(s.connectionId(), (int) budget, (int) rcv, s.ruleWeight() == heaviestRule));
        }
        return out;
    }
}
