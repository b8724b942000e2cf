package org.irmi.bench.echo.internal;

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

            CleanTrial.check(t, 8, 100);
        } finally {
            s.close();
        }
    }
}
