package org.irmi.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Prometheus's own tool on the files in {@code docs/monitoring/}: {@code promtool check rules} on the
 * alerting rules, {@code promtool test rules} on their unit tests. Without promtool the test fails and
 * says how to install it; it never skips. {@code -Dpromtool=PATH} (or {@code PROMTOOL}) names another
 * binary than the one on the {@code PATH}.
 */
class PromtoolRulesTest {
    private static final Path DOCS = Path.of("..", "docs", "monitoring").toAbsolutePath().normalize();

    @Test
    void shouldPassPromtoolCheckRulesWhenTheAlertingRulesAreLoaded() throws Exception {
        String out = promtool("check", "rules", "prometheus-alerts.yml");

        assertThat(out).contains("SUCCESS");
    }

    @Test
    void shouldPassPromtoolTestRulesWhenTheAlertsUnitTestsRun() throws Exception {
        String out = promtool("test", "rules", "prometheus-alerts-test.yml");

        assertThat(out).contains("SUCCESS");
    }

    /** Runs promtool in docs/monitoring; fails with its output unless it exits 0. */
    private static String promtool(String... args) throws IOException, InterruptedException {
        Path binary = locate().orElseGet(() -> fail("promtool is not installed, so the alerting rules in "
                + DOCS + " cannot be checked. Install it (Debian/Ubuntu: `apt-get install prometheus`, or the "
                + "prometheus-*.tar.gz release from https://prometheus.io/download/) or name it with "
                + "-Dpromtool=PATH / PROMTOOL=PATH."));
        List<String> command = Stream.concat(Stream.of(binary.toString()), Stream.of(args)).toList();
        Process p = new ProcessBuilder(command).directory(DOCS.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(String.join(" ", command) + " did not finish in 60 s:\n" + out);
        }
        assertThat(p.exitValue()).as(String.join(" ", command) + " in " + DOCS + " said:\n" + out).isZero();
        return out;
    }

    private static Optional<Path> locate() {
        String named = System.getProperty("promtool", System.getenv("PROMTOOL"));
        if (named != null && !named.isBlank()) {
            return Optional.of(Path.of(named));
        }
        String path = System.getenv().getOrDefault("PATH", "");
        return Stream.of(path.split(File.pathSeparator)).filter(d -> !d.isEmpty())
                .map(d -> Path.of(d, "promtool")).filter(Files::isExecutable).findFirst();
    }
}
