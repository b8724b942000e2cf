package org.irmi.bench.echo.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The echo server started the way the benchmark starts it: in a JVM of its own. */
class ServerProcessTest {

    @Test
    void shouldPublishReachableIorWhenStartedInItsOwnJvm(@TempDir Path dir) throws Exception {
        ServerProcess s = ServerProcess.start("jacorb", "jacorb", dir, Duration.ofSeconds(60));
        try {
            assertThat(s.pid()).isNotEqualTo(ProcessHandle.current().pid());
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(s.ior().host(), s.ior().port()), 2000);
            }
            assertThat(ProcessSample.of(s.pid()).threads()).isPositive();
        } finally {
            s.close();
        }
        assertThat(s.isAlive()).isFalse();
    }

    @Test
    void shouldReportServerLogWhenVariantIsUnknown(@TempDir Path dir) {
        assertThatThrownBy(() -> ServerProcess.start("visibroker", "bad", dir, Duration.ofSeconds(60)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("exited with 2")
                .hasMessageContaining("unknown --orb 'visibroker'");
    }
}
