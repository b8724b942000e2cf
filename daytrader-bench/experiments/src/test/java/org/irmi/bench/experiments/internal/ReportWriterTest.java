package org.irmi.bench.experiments.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.irmi.bench.experiments.Bound;
import org.irmi.bench.experiments.Chart;
import org.irmi.bench.experiments.ExperimentResult;
import org.irmi.bench.experiments.Goal;
import org.irmi.bench.experiments.Harm;
import org.irmi.bench.experiments.Spread;
import org.irmi.bench.experiments.Table;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportWriterTest {

    @TempDir
    Path dir;

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    private ExperimentResult result() {
        return new ExperimentResult("demo", "Demo experiment")
                .table(Table.of("Table 1", "case", "ms").row("plain", "2.0").row("I-RMI", "1.0"))
                .chart(Chart.of("demo.png", "Figure 1", "t (s)", "ms", false)
                        .line("plain", new double[] {0, 1}, new double[] {2, 2})
                        .marker("poison", 0.5).marker("poison", 0.7))
                .goal(new Goal("demo", "met", "ratio on I-RMI", "%.2fx", Spread.of(2.0, 2.5, 3.0), Spread.of(1.0, 0.9, 1.05),
                        Bound.atMost(1.1), new Harm("ratio on plain", Spread.of(2.0, 2.5, 3.0), Bound.atLeast(2))))
                .goal(new Goal("demo", "never", "never met", "%.2fx", Spread.of(3.0), Spread.of(2.0), Bound.atMost(1.1), null))
                .note("a note");
    }

    @Test
    void shouldWriteHtmlMarkdownAndPngWhenGivenAResult() throws Exception {
        ReportWriter.write(dir, "./irmi experiments demo", List.of(result()), List.of());

        assertThat(dir.resolve("index.html")).exists();
        assertThat(dir.resolve("summary.md")).exists();
        assertThat(Files.size(dir.resolve("demo.png"))).isPositive();
    }

    @Test
    void shouldSayPlainlyWhichGoalsWereNotReachedWhenSummarizing() {
        String table = ReportWriter.goalTable(List.of(result()));

        assertThat(table).contains("| demo | ratio on I-RMI <= 1.1 | 2.50 (2.00 to 3.00) (needs >= 2, shown) | 2.50x (2.00x to 3.00x)"
                        + " | 1.00x (0.90x to 1.05x) | yes |")
                .contains("| demo | never met <= 1.1 | - | 3.00x | 2.00x | **NOT reached** |");
    }

    @Test
    void shouldListFailedExperimentsWhenSomeCouldNotRun() throws Exception {
        ReportWriter.write(dir, "cmd", List.of(), List.of("poison could not run: no DayTrader"));

        assertThat(Files.readString(dir.resolve("summary.md"))).contains("poison could not run: no DayTrader");
    }
}
