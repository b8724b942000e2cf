package org.irmi.bench.echo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.irmi.bench.echo.NioLoadClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link NioLoadClient} in a JVM of its own, run by {@link LoadRun} as the benchmark runs it, against an
 * I-RMI echo server in a child JVM: its output parses as the C++ client's does, and the figures add up.
 */
class NioLoadClientTest {

    @Test
    void shouldReportEveryCallOfEveryConnectionAsTheCppClientDoes(@TempDir Path dir) throws Exception {
        ServerProcess s = ServerProcess.start("irmi", "irmi", dir, Duration.ofSeconds(60));
        try {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> client = List.of(java, "-cp", System.getProperty("java.class.path"), NioLoadClient.class.getName());

            LoadRun.Trial t = LoadRun.run(client, s.iorFile(), s.pid(), s.ior().port(), null, 8, 100,
                    Duration.ofMillis(300), Duration.ofMillis(700), List.of());

            LoadResult r = t.result();
            assertThat(r.connections()).isEqualTo(8);
            assertThat(r.connected()).isEqualTo(8);
            assertThat(r.payloadBytes()).isEqualTo(100);
            assertThat(r.errors()).isZero();
            assertThat(r.errorsAll()).isZero();
            assertThat(r.calls()).isGreaterThan(8);
            assertThat(r.seconds()).isBetween(0.6, 5.0);
            // every measured call's latency is in the histogram, and the percentiles come from it
            assertThat(r.histogram().getTotalCount()).isEqualTo(r.calls());
            assertThat(r.p50Micros()).isPositive().isLessThanOrEqualTo(r.p99Micros());
            // the measurement marks reached LoadRun: the server's and the client's CPU between them
            assertThat(t.serverCpuNanos()).isPositive();
            assertThat(t.clientCpuNanos()).isPositive();
            // the client held its 8 connections until LoadRun released it
            assertThat(t.serverConnections()).isEqualTo(8);
        } finally {
            s.close();
        }
    }
}
