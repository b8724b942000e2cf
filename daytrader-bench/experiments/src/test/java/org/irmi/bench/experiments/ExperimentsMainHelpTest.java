package org.irmi.bench.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code ./irmi experiments}'s command line, in process: help and refused arguments run nothing. */
class ExperimentsMainHelpTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = ExperimentsMain.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void shouldPrintEveryOptionAndExitZeroWhenAskedForHelp() {
        int code = run("--help");

        assertThat(code).isZero();
        assertThat(out.toString()).startsWith("Usage: ./irmi experiments").contains("[EXPERIMENT...]", "normal-day",
                "poison", "slow-client", "crosstalk", "--quick", "--tiny", "--repetitions=N", "--out=DIR", "--results-doc=FILE");
    }

    @Test
    void shouldExitTwoNamingTheExperimentsWhenOneIsUnknown() {
        int code = run("posion");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("unknown experiment 'posion'; the experiments are normal-day, poison,"
                + " slow-client, crosstalk");
    }

    @Test
    void shouldExitTwoWhenRepetitionsIsOutOfRange() {
        int code = run("--repetitions", "0");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--repetitions must be 1 to 20, got 0");
    }
}
