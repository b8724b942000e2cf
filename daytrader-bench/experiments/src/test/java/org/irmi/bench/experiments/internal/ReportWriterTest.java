package org.irmi.bench.experiments.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.irmi.bench.experiments.Chart;
import org.irmi.bench.experiments.ExperimentResult;
import org.irmi.bench.experiments.Goal;
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
                .goal(new Goal("demo", "I-RMI <= 1.1x", "2.00x", "1.00x", true))
                .goal(new Goal("demo", "never met", "3.00x", "2.00x", false))
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

        assertThat(table).contains("| demo | I-RMI <= 1.1x | 2.00x | 1.00x | yes |")
                .contains("| demo | never met | 3.00x | 2.00x | **NOT reached** |");
    }

    @Test
    void shouldListFailedExperimentsWhenSomeCouldNotRun() throws Exception {
        ReportWriter.write(dir, "cmd", List.of(), List.of("poison could not run: no DayTrader"));

        assertThat(Files.readString(dir.resolve("summary.md"))).contains("poison could not run: no DayTrader");
    }
}
