package org.irmi.bench.daytrader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@link DayTraderBenchmark}'s command line, in process: help and refused options start no deployment. */
class DayTraderBenchmarkHelpTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = DayTraderBenchmark.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void shouldPrintEveryOptionAndExitZeroWhenAskedForHelp() {
        int code = run("--help");

        assertThat(code).isZero();
        assertThat(out.toString()).startsWith("Usage: DayTraderBenchmark").contains("--quick", "--rounds=N", "--seconds=S",
                "--warmup=S", "--sessions=N", "--users=N", "--quotes=N", "--sla=FILE", "--out=FILE", "--update-docs",
                "2 with --quick");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void shouldExitTwoNamingTheBoundWhenSecondsIsBelowFive() {
        int code = run("--quick", "--seconds", "3");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--seconds must be at least 5, was 3", "Usage: DayTraderBenchmark");
    }

    @Test
    void shouldExitTwoWhenBothOutAndUpdateDocsAreGiven() {
        int code = run("--out", "target/x.md", "--update-docs");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--out and --update-docs: give one");
    }

    @Test
    void shouldExitTwoSuggestingTheOptionWhenAnOptionIsUnknown() {
        int code = run("--round", "3");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("Unknown options: '--round', '3'", "--rounds");
    }
}
