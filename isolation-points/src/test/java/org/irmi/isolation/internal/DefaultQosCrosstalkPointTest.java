package org.irmi.isolation.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.irmi.isolation.ConnectionTuner;
import org.irmi.isolation.IncomingRequest;
import org.irmi.sla.CrosstalkConfig;
import org.irmi.sla.StreamWeight;
import org.junit.jupiter.api.Test;

class DefaultQosCrosstalkPointTest {
    private static final long MS = 1_000_000L;
    private final Map<Long, Integer> budgets = new HashMap<>();
    private final Map<Long, Integer> buffers = new HashMap<>();
    private int tunerCalls;
    private final ConnectionTuner tuner = new ConnectionTuner() {
        @Override
        public void setReadBudget(long connectionId, int bytesPerTurn) {
            budgets.put(connectionId, bytesPerTurn);
            tunerCalls++;
        }

        @Override
        public void setReceiveBufferSize(long connectionId, int bytes) {
            buffers.put(connectionId, bytes);
            tunerCalls++;
        }
    };
    private final CrosstalkConfig config = CrosstalkConfig.custom()
            .addWeight(new StreamWeight(StreamWeight.Kind.CLIENT, "10.0.0.4/32", 4))
            .addWeight(new StreamWeight(StreamWeight.Kind.OBJECT_KEY, "*bulk*", 2))
            .addWeight(new StreamWeight(StreamWeight.Kind.TAG, "gold", 8))
            .baseReadBudgetBytes(64 * 1024).idleAfter(Duration.ofMillis(100)).build();
    private final DefaultQosCrosstalkPoint point = new DefaultQosCrosstalkPoint(config, tuner);

    private static IncomingRequest header(long conn, String key, String tag) {
        return new IncomingRequest(conn, 1, "10.0.0.9:1", key, "op", 100, true, tag, null);
    }

    /** A builder whose one rule weighs the object keys containing "bulk" {@code weight}. */
    private static CrosstalkConfig.Builder bulkWeighted(double weight) {
        return CrosstalkConfig.custom().addWeight(new StreamWeight(StreamWeight.Kind.OBJECT_KEY, "*bulk*", weight));
    }

    /** Opens a connection from 127.0.0.1 with one request for {@code objectKey} and one byte read: active at the next tick. */
    private static void openActive(DefaultQosCrosstalkPoint p, long conn, String objectKey) {
        p.onConnectionOpened(conn, "127.0.0.1");
        p.onRequestHeader(header(conn, objectKey, null));
        p.onBytesRead(conn, 1);
    }

    @Test
    void shouldWeighConnectionsByAddressObjectKeyAndTag() {
        point.onConnectionOpened(1, "10.0.0.1");
        point.onConnectionOpened(2, "10.0.0.4");
        point.onConnectionOpened(3, "10.0.0.1");
        point.onConnectionOpened(4, "10.0.0.1");
        point.onRequestHeader(header(3, "POA/bulk-store", null));
        point.onRequestHeader(header(4, "POA/x", "gold"));
        assertThat(point.weightOf(1)).isEqualTo(1.0);
        assertThat(point.weightOf(2)).isEqualTo(4.0);
        assertThat(point.weightOf(3)).isEqualTo(2.0);
        assertThat(point.weightOf(4)).isEqualTo(8.0);
    }

    @Test
    void shouldShareARulesWeightAmongItsActiveConnectionsWhenWeightIsPerRule() {
        DefaultQosCrosstalkPoint p = new DefaultQosCrosstalkPoint(bulkWeighted(8).weightPer(CrosstalkConfig.WeightPer.RULE)
                .baseReadBudgetBytes(16 * 1024).minReadBudgetBytes(256).build(), tuner);
        openActive(p, 1, "POA/bulk");
        for (long small = 2; small <= 5; small++) {
            openActive(p, small, "POA/small");
        }

        p.tick(0);

        // Five streams, the four unweighted ones share weight 1: 8 against 1/4 each, W = 9.
        assertThat(budgets.get(1L)).isEqualTo(Math.round(16 * 1024 * 5 * 8 / 9.0));
        for (long small = 2; small <= 5; small++) {
            assertThat(budgets.get(small)).isEqualTo(Math.round(16 * 1024 * 5 * 0.25 / 9.0));
        }
        // Together the four read what one unweighted stream would: 1/8 of the weighted one.
        assertThat(4.0 * budgets.get(2L) / budgets.get(1L)).isCloseTo(1 / 8.0, within(0.001));
    }

    @Test
    void shouldShareARulesWeightAmongTheConnectionsActiveAtEachTickWhenWeightIsPerRule() {
        DefaultQosCrosstalkPoint p = new DefaultQosCrosstalkPoint(bulkWeighted(8).weightPer(CrosstalkConfig.WeightPer.RULE)
                .idleAfter(Duration.ofMillis(100)).build(), tuner);
        openActive(p, 1, "POA/bulk");
        openActive(p, 2, "POA/bulk");
        p.tick(0);
        assertThat(p.weightOf(1)).isEqualTo(4.0);
        p.onBytesRead(1, 1);
        p.tick(150 * MS); // connection 2 idle: the rule's weight is connection 1's alone again
        assertThat(p.weightOf(1)).isEqualTo(8.0);
        assertThat(p.activeStreams()).isEqualTo(1);
    }

    @Test
    void shouldKeepAutotuningForTheHeaviestRuleOnlyWhenItsWeightIsSharedAmongManyConnections() {
        DefaultQosCrosstalkPoint p = new DefaultQosCrosstalkPoint(bulkWeighted(8).weightPer(CrosstalkConfig.WeightPer.RULE)
                .minReceiveBufferBytes(8 * 1024).maxReceiveBufferBytes(128 * 1024).build(), tuner);
        for (long bulk = 1; bulk <= 9; bulk++) {
            openActive(p, bulk, "POA/bulk");
        }
        openActive(p, 10, "POA/small");

        p.tick(0);

        // The lone unweighted connection reads with 1 against 8/9 each, yet it is not the heavy rule:
        // its buffer is set (at most the maximum), not left to the kernel's autotuning.
        assertThat(buffers).containsEntry(10L, 128 * 1024);
        assertThat(buffers).doesNotContainKeys(1L, 2L, 9L);
        assertThat(p.weightOf(1)).isCloseTo(8 / 9.0, within(1e-9));
        assertThat(p.weightOf(10)).isEqualTo(1.0);
    }

    @Test
    void shouldGiveEveryConnectionItsRulesWholeWeightWhenWeightIsPerConnection() {
        CrosstalkConfig c = bulkWeighted(8).baseReadBudgetBytes(16 * 1024).minReadBudgetBytes(256).build();
        DefaultQosCrosstalkPoint p = new DefaultQosCrosstalkPoint(c, tuner);
        openActive(p, 1, "POA/bulk");
        for (long small = 2; small <= 5; small++) {
            openActive(p, small, "POA/small");
        }

        p.tick(0);

        assertThat(c.weightPer()).isEqualTo(CrosstalkConfig.WeightPer.CONNECTION);
        assertThat(4.0 * budgets.get(2L) / budgets.get(1L)).isCloseTo(4 / 8.0, within(0.001));
    }

    @Test
    void shouldGiveReadSharesOfOneTwoFourWhenEveryStreamHasDataWaiting() {
        CrosstalkConfig c = CrosstalkConfig.custom()
                .addWeight(new StreamWeight(StreamWeight.Kind.OBJECT_KEY, "w2", 2))
                .addWeight(new StreamWeight(StreamWeight.Kind.OBJECT_KEY, "w4", 4)).build();
        DefaultQosCrosstalkPoint p = new DefaultQosCrosstalkPoint(c, tuner);
        long[] ids = {1, 2, 3};
        String[] keys = {"w1", "w2", "w4"};
        for (int i = 0; i < 3; i++) {
            openActive(p, ids[i], keys[i]);
        }
        long now = 0;
        p.tick(now);
        // a selector that reads each connection's budget every turn (each has data waiting)
        for (int turn = 0; turn < 1000; turn++) {
            for (long id : ids) {
                p.onBytesRead(id, budgets.get(id));
            }
            now += MS;
            p.tick(now);
        }
        double total = p.bytesRead(1) + p.bytesRead(2) + p.bytesRead(3);
        assertThat(p.bytesRead(1) / total).isCloseTo(1 / 7.0, within(0.001));
        assertThat(p.bytesRead(2) / total).isCloseTo(2 / 7.0, within(0.001));
        assertThat(p.bytesRead(3) / total).isCloseTo(4 / 7.0, within(0.001));
        // receive buffers follow the weight: the heaviest keeps the kernel's autotuning (never set),
        // the others get the largest buffer (4 MiB) times their weight over the heaviest's
        assertThat(buffers).doesNotContainKey(3L);
        assertThat(buffers.get(2L)).isEqualTo(2 * 1024 * 1024);
        assertThat(buffers.get(1L)).isEqualTo(1024 * 1024);
    }

    /** Connections 1 (weight 1) and 2 (weight 4, by its address) of {@link #point}, both active at tick 0. */
    private void twoActiveStreamsWeighedOneAndFour() {
        point.onConnectionOpened(1, "10.0.0.1");
        point.onConnectionOpened(2, "10.0.0.4");
        point.onBytesRead(1, 10);
        point.onBytesRead(2, 10);
        point.tick(0);
    }

    @Test
    void shouldLeaveAnIdleStreamsReceiveBufferAsItIsWhenItGoesIdle() {
        twoActiveStreamsWeighedOneAndFour();
        Integer lighter = buffers.get(1L);
        assertThat(lighter).isNotNull(); // the lighter of two active streams got a buffer
        point.onBytesRead(2, 10);
        point.tick(150 * MS); // connection 1 idle

        assertThat(buffers.get(1L)).isEqualTo(lighter);
        assertThat(budgets.get(1L)).isEqualTo(64 * 1024); // but its budget is back to the base
    }

    @Test
    void shouldReturnIdleStreamsToTheBaseBudgetAndRescaleTheOthers() {
        twoActiveStreamsWeighedOneAndFour();
        assertThat(point.activeStreams()).isEqualTo(2);
        assertThat(budgets.get(2L)).isEqualTo(Math.round(64 * 1024 * 2 * 4 / 5.0));
        point.onBytesRead(2, 10);
        point.tick(150 * MS); // connection 1 idle for 150 ms > idleAfter
        assertThat(point.activeStreams()).isEqualTo(1);
        assertThat(budgets.get(1L)).isEqualTo(64 * 1024);
        assertThat(budgets.get(2L)).isEqualTo(64 * 1024);
    }

    @Test
    void shouldNotCallTheTunerWhenBudgetsAreUnchanged() {
        point.onConnectionOpened(1, "10.0.0.1");
        point.onBytesRead(1, 10);
        point.tick(0);
        int calls = tunerCalls;
        point.onBytesRead(1, 10);
        point.tick(MS);
        assertThat(tunerCalls).isEqualTo(calls);
    }

    @Test
    void shouldForgetClosedConnections() {
        point.onConnectionOpened(1, "10.0.0.1");
        point.onBytesRead(1, 10);
        point.onConnectionClosed(1);
        point.tick(0);
        assertThat(point.activeStreams()).isZero();
        assertThat(point.bytesRead(1)).isZero();
    }
}
