package org.irmi.isolation.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.irmi.isolation.ConnectionTuner;
import org.irmi.isolation.IncomingRequest;
import org.irmi.isolation.QosCrosstalkPoint;
import org.irmi.sla.CrosstalkConfig;
import org.irmi.sla.StreamWeight;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The QoS-crosstalk point. SELECTOR THREAD ONLY: all state lives in plain maps owned by the one
 * selector thread. A connection's weight is the first rule matching its client address, replaced
 * by the weight of the first object-key or tag rule its latest request matched. With
 * {@code weightPer: rule} the active connections of one rule (or of none: the default weight)
 * share its weight, each reading with the weight over their number.
 *
 * <p>Budgets are pushed to the {@link ConnectionTuner} only when they change, so a steady set of
 * streams costs one allocation pass per tick and no system calls. A tick reuses its working lists
 * and counts (the fields below), which the one owning thread makes safe.
 */
public final class DefaultQosCrosstalkPoint implements QosCrosstalkPoint {
    private static final Logger LOG = LoggerFactory.getLogger("irmi.crosstalk");
    /** A receive buffer never set: the kernel's autotuning sizes it. */
    private static final int UNTUNED = -1;
    private final CrosstalkConfig config;
    private final List<StreamWeight> weights;
    private final ConnectionTuner tuner;
    private final Map<Long, Conn> connections = new HashMap<>();
    private volatile int activeStreams;
    /** The connections active at this tick; reused by every tick, so a tick allocates no list of its own. */
    private final List<Conn> activeConns = new ArrayList<>();
    /** The streams handed to the allocator at this tick; reused like {@link #activeConns}. */
    private final List<ReadBudgetAllocator.Stream> activeStreamList = new ArrayList<>();
    /** Active connections per rule at this tick, at index rule + 1 ({@link #DEFAULT_RULE} at 0); reused. */
    private final int[] activePerRule;

    /** The rule of the connections no rule matches. */
    private static final int DEFAULT_RULE = -1;

    /** One connection's state; selector thread only. */
    private static final class Conn {
        final long id;
        final double addressWeight;
        final int addressRule;
        double weight;
        /** Index of the rule that gave {@link #weight}, or {@link #DEFAULT_RULE}. */
        int rule;
        /** The weight it reads with at the last tick (its rule's shared among the rule's active connections), NaN when idle. */
        double effectiveWeight = Double.NaN;
        long bytesRead;
        long bytesAtLastTick;
        long lastActiveNanos = Long.MIN_VALUE / 2;
        int appliedBudget = -1;
        int appliedReceiveBuffer = UNTUNED;

        Conn(long id, double addressWeight, int addressRule) {
            this.id = id;
            this.addressWeight = addressWeight;
            this.addressRule = addressRule;
            this.weight = addressWeight;
            this.rule = addressRule;
        }
    }

    public DefaultQosCrosstalkPoint(CrosstalkConfig config, ConnectionTuner tuner) {
        this.config = config;
        this.weights = config.weights();
        this.tuner = tuner;
        this.activePerRule = new int[weights.size() + 1];
    }

    @Override
    public void onConnectionOpened(long connectionId, String peerAddress) {
        double w = config.defaultWeight();
        int rule = DEFAULT_RULE;
        for (int i = 0; i < weights.size(); i++) {
            StreamWeight r = weights.get(i);
            if (r.kind() == StreamWeight.Kind.CLIENT && r.matches(peerAddress)) {
                w = r.weight();
                rule = i;
                break;
            }
        }
        connections.put(connectionId, new Conn(connectionId, w, rule));
    }

    @Override
    public void onConnectionClosed(long connectionId) {
        connections.remove(connectionId);
    }

    @Override
    public void onRequestHeader(IncomingRequest request) {
        Conn c = connections.get(request.connectionId());
        if (c == null) {
            return;
        }
        double w = c.addressWeight;
        int rule = c.addressRule;
        for (int i = 0; i < weights.size(); i++) {
            StreamWeight r = weights.get(i);
            boolean hit = switch (r.kind()) {
                case OBJECT_KEY -> r.matches(request.objectKey());
                case TAG -> r.matches(request.tag());
                case CLIENT -> false;
            };
            if (hit) {
                w = r.weight();
                rule = i;
                break;
            }
        }
        c.weight = w;
        c.rule = rule;
    }

    @Override
    public void onBytesRead(long connectionId, int bytes) {
        Conn c = connections.get(connectionId);
        if (c != null) {
            c.bytesRead += bytes;
        }
    }

    @Override
    public void tick(long nowNanos) {
        activeConns.clear();
        for (Conn c : connections.values()) {
            if (c.bytesRead != c.bytesAtLastTick) {
                c.bytesAtLastTick = c.bytesRead;
                c.lastActiveNanos = nowNanos;
            }
            if (nowNanos - c.lastActiveNanos <= config.idleAfter().toNanos()) {
                activeConns.add(c);
            } else {
                // Idle: back to the base budget; its receive buffer stays as it is (no system call,
                // and a buffer left to the kernel's autotuning stays so).
                c.effectiveWeight = Double.NaN;
                apply(c, (int) config.baseReadBudgetBytes(), c.appliedReceiveBuffer, true);
            }
        }
        // weightPer: rule: the active connections of a rule share its weight.
        boolean shared = config.weightPer() == CrosstalkConfig.WeightPer.RULE;
        if (shared) {
            Arrays.fill(activePerRule, 0);
            for (Conn c : activeConns) {
                activePerRule[c.rule + 1]++;
            }
        }
        List<ReadBudgetAllocator.Stream> active = activeStreamList;
        active.clear();
        for (Conn c : activeConns) {
            c.effectiveWeight = c.weight / (shared ? activePerRule[c.rule + 1] : 1);
            active.add(new ReadBudgetAllocator.Stream(c.id, c.effectiveWeight, c.weight));
        }
        if (active.size() != activeStreams) {
            LOG.debug("irmi.crosstalk active streams {} -> {}", activeStreams, active.size());
        }
        activeStreams = active.size();
        for (ReadBudgetAllocator.Budget b : ReadBudgetAllocator.allocate(active, config)) {
            apply(connections.get(b.connectionId()), b.readBudgetBytes(), b.receiveBufferBytes(), b.autotune());
        }
    }

    private void apply(Conn c, int budget, int rcvbuf, boolean autotune) {
        if (c.appliedBudget != budget) {
            c.appliedBudget = budget;
            tuner.setReadBudget(c.id, budget);
        }
        if (autotune && c.appliedReceiveBuffer == UNTUNED && rcvbuf >= config.maxReceiveBufferBytes()) {
            // The heaviest stream keeps the kernel's receive-buffer autotuning (which grows past any
            // SO_RCVBUF we may set: net.ipv4.tcp_rmem against net.core.rmem_max) until it must be
            // made smaller; setting SO_RCVBUF turns autotuning off for good.
            return;
        }
        if (rcvbuf != UNTUNED && c.appliedReceiveBuffer != rcvbuf) {
            c.appliedReceiveBuffer = rcvbuf;
            tuner.setReceiveBufferSize(c.id, rcvbuf);
        }
    }

    @Override
    public int activeStreams() {
        return activeStreams;
    }

    @Override
    public double weightOf(long connectionId) {
        Conn c = connections.get(connectionId);
        if (c == null) {
            return config.defaultWeight();
        }
        // What it reads with: with weightPer: rule, its rule's weight shared among the rule's active connections.
        return Double.isNaN(c.effectiveWeight) ? c.weight : c.effectiveWeight;
    }

    @Override
    public long bytesRead(long connectionId) {
        Conn c = connections.get(connectionId);
        return c == null ? 0 : c.bytesRead;
    }

    @Override
    public int receiveBufferBytes(long connectionId) {
        Conn c = connections.get(connectionId);
        return c == null ? UNTUNED : c.appliedReceiveBuffer;
    }

    /** @return the budget last pushed to the tuner for the connection, -1 when none. */
    public int appliedBudget(long connectionId) {
        Conn c = connections.get(connectionId);
        return c == null ? -1 : c.appliedBudget;
    }
}
