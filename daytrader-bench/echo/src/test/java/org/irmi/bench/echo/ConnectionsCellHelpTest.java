package org.irmi.bench.echo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code ./irmi echo-bench --nio-cell}'s command line, in process: help and refused options start no server. */
class ConnectionsCellHelpTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = ConnectionsCell.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void shouldPrintEveryOptionAndExitZeroWhenAskedForHelp() {
        int code = run("--help");

        assertThat(code).isZero();
        assertThat(out.toString()).startsWith("Usage: ./irmi echo-bench --nio-cell").contains("--variants=NAME,...",
                "--connections=N", "--trials=N", "--idle-ms=MS", "--measure-ms=MS", "--histo=DIR", "default: 10000");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void shouldExitTwoNamingTheOptionWhenConnectionsIsNotANumber() {
        int code = run("--connections", "10k");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("'10k'", "--connections", "Usage: ./irmi echo-bench --nio-cell");
    }

    @Test
    void shouldExitTwoNamingTheBoundWhenTrialsIsBelowOne() {
        int code = run("--trials", "0");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--trials must be at least 1, was 0");
    }

    @Test
    void shouldExitTwoSuggestingTheOptionWhenAnOptionIsUnknown() {
        int code = run("--conections", "5");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("Unknown options: '--conections', '5'", "--connections");
    }

    @Test
    void shouldExitTwoNamingTheServersWhenAVariantIsNoJvmServer() {
        int code = run("--variants", "irmi,omniorb");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--variants: 'omniorb' is not a JVM echo server; use jacorb or irmi");
    }
}
