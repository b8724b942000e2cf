package org.irmi.orb.isolation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;

import org.irmi.isolation.IncomingRequest;
import org.irmi.isolation.QosCrosstalkPoint;
import org.irmi.orb.ConnectionView;
import org.junit.jupiter.api.Test;

class ShareSamplerTest {
    private static final long HALF_SECOND_NANOS = 500_000_000L;

    /** A crosstalk point that only answers weights and receive buffers. */
    private static QosCrosstalkPoint weights(Map<Long, Double> weights) {
        return new QosCrosstalkPoint() {
            @Override
            public void onConnectionOpened(long connectionId, String peerAddress) {
            }

            @Override
            public void onConnectionClosed(long connectionId) {
            }

            @Override
            public void onRequestHeader(IncomingRequest request) {
            }

            @Override
            public void onBytesRead(long connectionId, int bytes) {
            }

            @Override
            public void tick(long nowNanos) {
            }

            @Override
            public int activeStreams() {
                return 0;
            }

            @Override
            public double weightOf(long connectionId) {
                return weights.get(connectionId);
            }

            @Override
            public long bytesRead(long connectionId) {
                return 0;
            }

            @Override
            public int receiveBufferBytes(long connectionId) {
                return (int) connectionId * 1000;
            }
        };
    }

    private static ConnectionView conn(long id, long bytesRead) {
        return new ConnectionView(id, "10.0.0." + id + ":4000", 16 * 1024, bytesRead, 0, 0);
    }

    private final QosCrosstalkPoint point = weights(Map.of(1L, 3.0, 2L, 1.0, 3L, 5.0));

    @Test
    void shouldCountNoConnectionActiveWhenItIsFirstSeen() {
        ShareSampler sampler = new ShareSampler();

        List<ConnectionShare> shares = sampler.sample(List.of(conn(1, 5000)), point, HALF_SECOND_NANOS);

        assertThat(shares).singleElement().satisfies(s -> {
            assertThat(s.active()).isFalse();
            assertThat(s.bytesPerSecond()).isZero();
            assertThat(s.weightSharePercent()).isZero();
        });
    }

    @Test
    void shouldShareByWeightAmongActiveConnectionsAndByBytesAmongAllWhenTheyRead() {
        ShareSampler sampler = new ShareSampler();
        sampler.sample(List.of(conn(2, 0), conn(1, 0), conn(3, 0)), point, HALF_SECOND_NANOS);

        List<ConnectionShare> shares = sampler.sample(List.of(conn(2, 1000), conn(1, 3000), conn(3, 0)), point,
                2 * HALF_SECOND_NANOS);

        assertThat(shares).extracting(ConnectionShare::connectionId).containsExactly(1L, 2L, 3L);
        ConnectionShare first = shares.get(0);
        assertThat(first.weightSharePercent()).isCloseTo(75, within(1e-9));
        assertThat(first.sharePercent()).isCloseTo(75, within(1e-9));
        assertThat(first.bytesPerSecond()).isCloseTo(6000, within(1e-9));
        assertThat(first.receiveBufferBytes()).isEqualTo(1000);
        assertThat(shares.get(1).weightSharePercent()).isCloseTo(25, within(1e-9));
        assertThat(shares.get(2).active()).isFalse();
        assertThat(shares.get(2).weightSharePercent()).isZero();
    }

    @Test
    void shouldCountFromTheCurrentBytesAgainWhenReset() {
        ShareSampler sampler = new ShareSampler();
        sampler.sample(List.of(conn(1, 0)), point, HALF_SECOND_NANOS);
        sampler.reset();

        List<ConnectionShare> shares = sampler.sample(List.of(conn(1, 9000)), point, 2 * HALF_SECOND_NANOS);

        assertThat(shares.get(0).active()).isFalse();
    }
}
