package org.irmi.bench.echo.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code ./irmi echo-bench --help}, in process: every option and the {@code --nio-cell} mode. */
class EchoBenchHelpTest {

    @Test
    void shouldPrintEveryOptionAndExitZeroWhenAskedForHelp() {
        StringWriter out = new StringWriter();
        CommandLine cl = BenchmarkOptions.commandLine();
        cl.setOut(new PrintWriter(out, true));

        int code = cl.execute("--help");

        assertThat(code).isZero();
        assertThat(out.toString()).startsWith("Usage: ./irmi echo-bench").contains("--quick", "--variants=NAME,...",
                "--variant=NAME=BASE,key=value,...", "--payloads", "--connections", "--trials", "--warmup-ms", "--measure-ms",
                "--client=omniorb|nio|epoll", "--out=FILE", "--nio-cell");
    }

    @Test
    void shouldSuggestTheOptionWhenAnOptionIsUnknown() {
        assertThatThrownBy(() -> BenchmarkOptions.parse(new String[] {"--quik"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Unknown option: '--quik'");
    }
}
