package org.irmi.bench.echo.internal;

import static org.assertj.core.api.Assertions.assertThat;

/** What every load client's trial against a well-behaved echo server must show, whichever client made it. */
final class CleanTrial {

    private CleanTrial() {
    }

    /**
     * {@code t}, a trial of {@code connections} connections with {@code payloadBytes}-byte calls measured for
     * about 0.7 s by {@link LoadRun} with the server watched: every connection opened and was held, no call
     * failed, and the figures add up.
     */
    static void check(LoadRun.Trial t, int connections, int payloadBytes) {
        LoadResult r = t.result();
        assertThat(r.connections()).isEqualTo(connections);
        assertThat(r.connected()).isEqualTo(connections);
        assertThat(r.payloadBytes()).isEqualTo(payloadBytes);
        assertThat(r.errors()).isZero();
        assertThat(r.errorsAll()).isZero();
        assertThat(r.calls()).isGreaterThan(connections);
        assertThat(r.seconds()).isBetween(0.6, 5.0);
        // every measured call's latency is in the histogram, and the percentiles come from it
        assertThat(r.histogram().getTotalCount()).isEqualTo(r.calls());
        assertThat(r.p50Micros()).isPositive().isLessThanOrEqualTo(r.p99Micros());
        // the measurement marks reached LoadRun: the server's and the client's CPU between them
        assertThat(t.serverCpuNanos()).isPositive();
        assertThat(t.clientCpuNanos()).isPositive();
        // the client held its connections until LoadRun released it
        assertThat(t.serverConnections()).isEqualTo(connections);
    }
}
