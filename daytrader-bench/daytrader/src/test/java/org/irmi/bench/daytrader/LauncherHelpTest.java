package org.irmi.bench.daytrader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real {@code ./irmi} script's help: a bare {@code ./irmi} and every {@code COMMAND --help} print
 * and exit 0 without building. {@code mvn} on the script's PATH is a stub that leaves a mark, so a
 * help that would build (or run the tests) fails here instead of rebuilding the tree.
 */
class LauncherHelpTest {
    @TempDir
    static Path stubs;
    private static Path root;
    private static Path mvnCalled;

    @BeforeAll
    static void stubMaven() throws IOException {
        root = repositoryRoot();
        mvnCalled = stubs.resolve("mvn-called");
        Path mvn = stubs.resolve("mvn");
        Files.writeString(mvn, "#!/bin/sh\ntouch '" + mvnCalled + "'\nexit 97\n");
        assertThat(mvn.toFile().setExecutable(true)).isTrue();
    }

    private record Run(int code, String out) {
    }

    private static Run irmi(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", root.resolve("irmi").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("PATH", stubs + ":" + System.getenv("PATH"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("./irmi %s ended", String.join(" ", args)).isTrue();
        return new Run(p.exitValue(), out);
    }

    @Test
    void shouldListTheCommandsAndExitZeroWhenRunBare() throws Exception {
        Run r = irmi();

        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("I-RMI launcher").contains("  experiments ", "  daytrader ", "  echo-bench ",
                "  sla-check FILE...", "  test ", "  build ", "--metrics-port");
        assertThat(mvnCalled).doesNotExist();
    }

    @Test
    void shouldPrintTheSameListWhenAskedForHelp() throws Exception {
        assertThat(irmi("--help")).isEqualTo(irmi());
        assertThat(irmi("help")).isEqualTo(irmi());
    }

    @ParameterizedTest
    @ValueSource(strings = {"experiments", "daytrader", "echo-bench", "sla-check", "test", "build"})
    void shouldPrintTheCommandsUsageWithoutBuildingWhenAskedForHelp(String command) throws Exception {
        Run r = irmi(command, "--help");

        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out()).contains(command);
        assertThat(mvnCalled).as("./irmi %s --help ran mvn", command).doesNotExist();
    }

    @Test
    void shouldPrintTheNioCellsUsageWithoutBuildingWhenAskedForItsHelp() throws Exception {
        Run r = irmi("echo-bench", "--nio-cell", "--help");

        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out()).contains("--nio-cell");
        assertThat(mvnCalled).as("./irmi echo-bench --nio-cell --help ran mvn").doesNotExist();
    }

    @Test
    void shouldExitTwoNamingTheHelpWhenTheCommandIsUnknown() throws Exception {
        Run r = irmi("daytrade");

        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out()).isEqualTo("irmi: unknown command 'daytrade'; ./irmi help lists the commands\n");
    }

    private static Path repositoryRoot() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("irmi")) && Files.isRegularFile(d.resolve("pom.xml"))) {
                return d;
            }
        }
        throw new AssertionError("no ./irmi above " + Path.of("").toAbsolutePath());
    }
}
