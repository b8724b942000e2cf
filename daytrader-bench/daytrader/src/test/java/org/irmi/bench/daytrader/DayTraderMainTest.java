package org.irmi.bench.daytrader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code ./irmi daytrader}'s command line, in process: help and refused options start nothing. */
class DayTraderMainTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = DayTraderMain.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void shouldPrintEveryOptionAndExitZeroWhenAskedForHelp() {
        int code = run("--help");

        assertThat(code).isZero();
        assertThat(out.toString()).startsWith("Usage: ./irmi daytrader").contains("--orb=irmi|jacorb", "--db=h2|JDBC-URL",
                "--schema", "--users", "--quotes", "--port", "--threads", "--dir", "--sla=FILE", "--dashboard-port",
                "--metrics-port=PORT", "/metrics", "Ctrl-C");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void shouldExitTwoNamingTheOptionWhenUsersIsBelowOne() {
        int code = run("--users", "0");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--users must be at least 1, was 0", "Usage: ./irmi daytrader");
    }

    @Test
    void shouldExitTwoSuggestingTheOptionWhenAnOptionIsUnknown() {
        int code = run("--userz", "3");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("Unknown options: '--userz', '3'", "Possible solutions: --users");
    }

    @Test
    void shouldExitTwoWhenMetricsPortIsGivenWithStockJacorb() {
        int code = run("--orb", "jacorb", "--metrics-port", "9464");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--metrics-port serves the I-RMI backend's isolation points", "use --orb irmi");
    }

    @Test
    void shouldExitTwoWhenMetricsPortIsNoPort() {
        int code = run("--metrics-port", "70000");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--metrics-port must be 0..65535 (0: any free port), was 70000");
    }

    @Test
    void shouldExitTwoPrintingEachErrorAsFileLineColAndStartNothingWhenTheSlaHasErrors(@TempDir Path tmp) throws IOException {
        Path sla = Files.writeString(tmp.resolve("typo.yaml"), "service: trade\nobjectivs: []\n");
        Path dir = tmp.resolve("run");

        int code = run("--sla", sla.toString(), "--dir", dir.toString());

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).startsWith(sla + ":2:1: unknown key 'objectivs'")
                .contains("(did you mean 'objectives'?)", "nothing was started", "./irmi sla-check " + sla)
                .doesNotContain("Usage:");
        assertThat(dir).doesNotExist();
    }

    @Test
    void shouldReadARelativeSlaFromTheDirectoryTheLauncherWasCalledFrom(@TempDir Path tmp) throws IOException {
        Files.writeString(tmp.resolve("typo.yaml"), "service: trade\nobjectivs: []\n");
        Path dir = tmp.resolve("run");
        String before = System.getProperty(org.irmi.sla.SlaCheck.CALLER_DIR_PROPERTY);
        System.setProperty(org.irmi.sla.SlaCheck.CALLER_DIR_PROPERTY, tmp.toString());
        try {
            int code = run("--sla", "typo.yaml", "--dir", dir.toString());

            assertThat(code).isEqualTo(2);
            assertThat(err.toString()).as("read from the caller's directory, named as given")
                    .startsWith("typo.yaml:2:1: unknown key 'objectivs'");
        } finally {
            if (before == null) {
                System.clearProperty(org.irmi.sla.SlaCheck.CALLER_DIR_PROPERTY);
            } else {
                System.setProperty(org.irmi.sla.SlaCheck.CALLER_DIR_PROPERTY, before);
            }
        }
    }
}
