package org.irmi.bench.daytrader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * {@code ./irmi daytrader} as a user runs it: {@link DayTraderMain} in its own process group (as a
 * terminal starts it), small, on I-RMI with {@code --metrics-port 0}; its Prometheus endpoint answers,
 * then Ctrl-C (SIGINT to the whole group, as a terminal sends it) stops every tier with a message.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class DayTraderMainProcessTest {
    private static final String READY_LINE = "Press Ctrl-C to stop.";
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private Process process;
    /** Reads the process's output into {@link #lines} until its end. */
    private Thread outputReader;

    @BeforeAll
    void start() throws Exception {
        Path dir = Path.of("target", "daytrader-main-process");
        Files.deleteIfExists(dir.resolve("operator.token")); // left by a killed run
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // setsid: its own process group, so a group-wide SIGINT is the terminal's Ctrl-C and reaches no one else
        process = new ProcessBuilder("setsid", java, "-cp", System.getProperty("java.class.path"),
                DayTraderMain.class.getName(), "--orb", "irmi", "--users", "300", "--quotes", "200", "--threads", "8",
                "--port", "0", "--dashboard-port", "0", "--metrics-port", "0", "--dir", dir.toString())
                .redirectErrorStream(true).start();
        outputReader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    lines.add(line);
                }
            } catch (IOException ignored) {
                // the process ended
            }
        }, "daytrader-main-output");
        outputReader.setDaemon(true);
        outputReader.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);
        while (!lines.contains(READY_LINE)) {
            assertThat(process.isAlive()).as("DayTraderMain ended before it was ready: %s", lines).isTrue();
            assertThat(System.nanoTime()).as("DayTraderMain not ready in 150 s: %s", lines).isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    @AfterAll
    void stop() throws Exception {
        if (process != null && process.isAlive()) {
            signalGroup("KILL");
        }
    }

    @Test
    @Order(1)
    void shouldServeTheBackendsMetersForPrometheusWhenMetricsPortIsGiven() throws Exception {
        String url = metricsUrl();

        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(url).matches("http://127\\.0\\.0\\.1:\\d+/metrics");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("# HELP irmi_", "# TYPE irmi_");
    }

    @Test
    @Order(2)
    void shouldStopEveryTierWithAMessageWhenCtrlCIsPressed() throws Exception {
        String url = metricsUrl();
        String signal = sigintIgnoredHere() ? "TERM" : "INT"; // a JVM started with SIGINT ignored keeps ignoring it

        signalGroup(signal);

        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("stopped in 60 s: %s", lines).isTrue();
        outputReader.join(30_000); // the output's last lines, up to its end
        assertThat(outputReader.isAlive()).as("the output still open 30 s after the process ended: %s", lines).isFalse();
        assertThat(String.join("\n", lines)).contains("daytrader: stopping (Ctrl-C or SIGTERM): the web tier, then the backend",
                "daytrader: stopped; logs in").doesNotContain("stopped by itself", "unexpectedly", "Exception");
        assertThat(process.exitValue()).isEqualTo(signal.equals("INT") ? 130 : 143);
        assertThat(answers(url)).as("the backend's metrics endpoint is gone with the backend").isFalse();
    }

    private String metricsUrl() {
        Pattern p = Pattern.compile("^\\s*metrics:\\s+(\\S+)");
        for (String line : lines) {
            Matcher m = p.matcher(line);
            if (m.find()) {
                return m.group(1);
            }
        }
        throw new AssertionError("no metrics line in " + lines);
    }

    private boolean answers(String url) throws InterruptedException {
        try {
            http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding());
            return true;
        } catch (ConnectException e) {
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    /** Sends {@code signal} to the process group that setsid made (its id is the process's pid). */
    private void signalGroup(String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, "--", "-" + process.pid()).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).as("kill -%s -- -%d", signal, process.pid()).isZero();
    }

    /** True when this JVM (and so its children) started with SIGINT ignored, as a background job of a script. */
    private static boolean sigintIgnoredHere() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseLong(line.substring(7).trim(), 16) & (1L << 1)) != 0; // bit 1: signal 2, SIGINT
            }
        }
        return false;
    }
}
