package org.irmi.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.irmi.sla.SlaCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quick start (docs/quick-start.md) runs as the page says: its server and its client, each in a
 * JVM of its own started with {@code java}, over real sockets, the server with the page's SLA and
 * dashboard; and the page shows exactly the code and the SLA compiled and run here.
 */
class QuickStartTest {

    private static final Path SOURCES = Path.of("src/test/java/org/irmi/quickstart");
    private static final Path SLA = Path.of("src/test/resources/quickstart/sla.yaml");
    private static final Path PAGE = Path.of("../docs/quick-start.md");

    @TempDir
    Path workDir;

    private Process server;

    @AfterEach
    void stopServer() throws InterruptedException {
        if (server != null) {
            server.destroy();
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    @Test
    void shouldGreetTheClientWhenTheQuickStartServerAndClientRunAsThePageSays() throws Exception {
        int dashboardPort = freePort();
        server = java(HelloServer.class, "-Dirmi.sla=" + SLA.toAbsolutePath(), "-Dirmi.dashboard.port=" + dashboardPort)
                .redirectOutput(workDir.resolve("server.out").toFile()).start();
        awaitLine(workDir.resolve("server.out"), "ready: hello.ior");

        Process client = java(HelloClient.class).redirectOutput(workDir.resolve("client.out").toFile()).start();

        assertThat(client.waitFor(60, TimeUnit.SECONDS)).as("the client ends by itself").isTrue();
        assertThat(client.exitValue()).as("client exit code; output:\n%s", output()).isZero();
        assertThat(Files.readAllLines(workDir.resolve("client.out"))).as(output()).contains("Hello, world");
        HttpResponse<String> state = HttpClient.newHttpClient().send(HttpRequest
                        .newBuilder(URI.create("http://127.0.0.1:" + dashboardPort + "/api/state"))
                        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(state.statusCode()).as("the dashboard's /api/state").isEqualTo(200);
        assertThat(state.body()).as("the dashboard shows the SLA's service").contains("\"hello\"");
    }

    @Test
    void shouldShowTheCompiledCodeAndSlaWhenThePageListsThem() throws IOException {
        String page = Files.readString(PAGE);
        for (String file : List.of("Hello.java", "HelloServer.java", "HelloClient.java")) {
            assertThat(page).as("docs/quick-start.md lists %s as compiled", file)
                    .contains("```java\n" + Files.readString(SOURCES.resolve(file)) + "```\n");
        }
        assertThat(page).as("docs/quick-start.md lists the SLA the test runs")
                .contains("```yaml\n" + Files.readString(SLA) + "```\n");
    }

    @Test
    void shouldFitTheServerAndClientInUnder40LinesWhenImportsAreNotCounted() throws IOException {
        long lines = 0;
        for (String file : List.of("HelloServer.java", "HelloClient.java")) {
            lines += Files.readAllLines(SOURCES.resolve(file)).stream().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("import ") && !l.startsWith("package "))
                    .count();
        }
        assertThat(lines).isLessThan(40);
        assertThat(Files.readAllLines(SLA)).as("the SLA's lines").hasSizeLessThanOrEqualTo(10);
    }

    @Test
    void shouldPassTheSlaCheckWhenTheQuickStartSlaIsChecked() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int code = SlaCheck.run(new String[] {SLA.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("OK (service hello)");
    }

    /** {@code java [options] -cp <the test class path> main}, run in the test's working directory. */
    private ProcessBuilder java(Class<?> main, String... options) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Dorg.slf4j.simpleLogger.log.org.jacorb=error");
        command.addAll(List.of(options));
        command.addAll(List.of("-cp", System.getProperty("surefire.test.class.path",
                System.getProperty("java.class.path")), main.getName()));
        return new ProcessBuilder(command).directory(workDir.toFile())
                .redirectError(workDir.resolve(main.getSimpleName() + ".err").toFile());
    }

    private void awaitLine(Path file, String line) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(file) || !Files.readAllLines(file).contains(line)) {
            assertThat(server.isAlive()).as("the server runs; output:\n%s", output()).isTrue();
            assertThat(System.nanoTime()).as("'%s' within 60 s; output:\n%s", line, output()).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    /** Everything both JVMs wrote, for failure messages. */
    private String output() {
        StringBuilder s = new StringBuilder();
        for (String f : List.of("server.out", "HelloServer.err", "client.out", "HelloClient.err")) {
            try {
                s.append("--- ").append(f).append('\n').append(Files.readString(workDir.resolve(f)));
            } catch (IOException e) {
                s.append("--- ").append(f).append(": none\n");
            }
        }
        return s.toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
