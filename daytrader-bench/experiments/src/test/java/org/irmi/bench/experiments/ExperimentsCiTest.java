package org.irmi.bench.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs every experiment in its tiny configuration, with real JVMs, real JacORB and the real
 * I-RMI ORB, once for the class. Checks that the report is produced and that the isolation case
 * beats the plain case in the right direction; it never checks absolute times (the machine is
 * shared and small).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExperimentsCiTest {

    @TempDir
    static Path dir;

    private ExperimentsMain.Report report;
    private final ByteArrayOutputStream terminal = new ByteArrayOutputStream();

    @BeforeAll
    void runAllExperimentsTiny() throws Exception {
        System.setProperty("java.awt.headless", "true");
        report = ExperimentsMain.run(List.copyOf(ExperimentsMain.experiments().keySet()), RunLength.TINY, 1, dir,
                new PrintStream(terminal, true, StandardCharsets.UTF_8), "ExperimentsCiTest");
        Files.writeString(dir.resolve("terminal.txt"), terminal.toString(StandardCharsets.UTF_8));
        // Into the Surefire report, so a failed direction can be read with its tables and notes.
        System.out.println(terminal.toString(StandardCharsets.UTF_8));
        System.out.println(Files.readString(dir.resolve("summary.md")));
    }

    private ExperimentResult result(String name) {
        return report.results().stream().filter(r -> r.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(name + " did not run: " + report.failures()
                        + "\n" + terminal.toString(StandardCharsets.UTF_8)));
    }

    private static double figure(ExperimentResult result, String key) {
        Map<String, Double> figures = result.figures();
        assertThat(figures).as("figures of " + result.name()).containsKey(key);
        return figures.get(key);
    }

    @Test
    void shouldRunEveryExperimentWhenAllAreRequested() {
        assertThat(report.failures()).isEmpty();
        assertThat(report.results()).extracting(ExperimentResult::name)
                .containsExactly("poison", "slow-client", "crosstalk");
    }

    @Test
    void shouldWriteHtmlMarkdownChartsAndCsvWhenRunEnds() throws Exception {
        assertThat(dir.resolve("index.html")).isNotEmptyFile();
        assertThat(dir.resolve("summary.md")).content().contains("| experiment | goal |");
        try (var files = Files.list(dir)) {
            List<String> names = files.map(p -> p.getFileName().toString()).toList();
            assertThat(names).anyMatch(n -> n.endsWith(".png")).anyMatch(n -> n.endsWith(".csv"));
        }
    }

    @Test
    void shouldPrintTheSummaryTableWhenRunEnds() {
        assertThat(terminal.toString(StandardCharsets.UTF_8)).contains("| experiment | goal |").contains("goals reached");
    }

    @Test
    void shouldSpendLessTimeInGcOnIrmiThanOnPlainWhenSecondaryIsSlowed() {
        // The mechanism of the paper's Table 2 (queue build-up -> GC) and its remedy: plain JacORB's
        // unbounded queue fills the 120 MB heap, I-RMI eliminates forwards and its primary collects
        // little. GC time in the stressed phase needs no unloaded baseline, so a few seconds show it;
        // the RTT and GC-count ratios are the full run's goals.
        ExperimentResult slowClient = result("slow-client");

        assertThat(figure(slowClient, "irmi.forwardsEliminated")).isPositive();
        assertThat(figure(slowClient, "plain.forwardsEliminated")).isZero();
        assertThat(figure(slowClient, "irmi.stressedGcPercent")).isLessThan(figure(slowClient, "plain.stressedGcPercent"));
    }

    @Test
    void shouldHoldSecondaryStreamsBackBehindTheHeavyStreamOnlyWhenItOutweighsThem() throws Exception {
        // The crosstalk mechanism, in the experiment's own servers: with the large stream weighted 8x, I-RMI's
        // reader deferred the 2 KB streams' reads while a large request was in the middle of being read; with
        // equal weights (1x) it never did. And the direction of the harm with N secondary streams: a large
        // request takes plain JacORB longer to read, relative to its time alone, than I-RMI at 8x (a quiet
        // quick run: plain 2.6x to 3.5x with 5 to 8 streams, I-RMI about 1.0x; on a machine with half the
        // speed per core, full runs gave plain 3.0x and I-RMI 1.9x with 8: the direction holds, the 1.2x
        // goal does not, docs/experiments.md).
        ExperimentResult crosstalk = result("crosstalk");
        int streams = org.irmi.bench.experiments.internal.crosstalk.CrosstalkExperiment.MANY_STREAMS;
        // The direction means something only when plain JacORB showed the harm (>= 2x, the goals'
        // bound) in the same run, and a tiny run has one trial: on one 2-core machine plain's ratio
        // with 8 streams ranged from 1.4x to 5.1x between runs of the same code. So the tiny crosstalk
        // run is repeated, at most twice, until plain shows the harm; if it never does, the direction
        // cannot be checked and the test fails saying so.
        int runs = 1;
        while (figure(crosstalk, "plain.ratio." + streams + "streams") < 2.0 && runs < 3) {
            Path again = dir.resolve("crosstalk-again-" + runs);
            ExperimentsMain.Report r = ExperimentsMain.run(List.of("crosstalk"), RunLength.TINY, 1, again,
                    new PrintStream(terminal, true, StandardCharsets.UTF_8), "ExperimentsCiTest");
            crosstalk = r.results().stream().filter(x -> x.name().equals("crosstalk")).findFirst()
                    .orElseThrow(() -> new AssertionError("crosstalk did not run again: " + r.failures()));
            runs++;
        }
        System.out.println("crosstalk: " + runs + " tiny run(s); plain " + figure(crosstalk, "plain.ratio." + streams + "streams")
                + "x, I-RMI 8x " + figure(crosstalk, "irmi.ratio." + streams + "streams") + "x with " + streams + " streams");
        assertThat(figure(crosstalk, "plain.ratio." + streams + "streams"))
                .as("plain JacORB's worst ratio with %d streams in the last of %d tiny runs: no harm shown, no direction to check",
                        streams, runs)
                .isGreaterThanOrEqualTo(2.0);

        assertThat(figure(crosstalk, "irmi.readDeferrals.8x.1streams")).isPositive();
        assertThat(figure(crosstalk, "irmi.readDeferrals.8x." + streams + "streams")).isPositive();
        assertThat(figure(crosstalk, "irmi.readDeferrals.1x.1streams")).isZero();
        assertThat(figure(crosstalk, "irmi.ratio." + streams + "streams"))
                .as("I-RMI 8x's worst ratio with %d streams, against plain JacORB's", streams)
                .isLessThan(figure(crosstalk, "plain.ratio." + streams + "streams"));
    }

    @Test
    void shouldRejectLaterPoisonCallsOnIrmiButNotOnPlainWithoutFilteringNormalOperations() {
        // I-RMI identifies the poison request type and rejects it before dispatch, plain JacORB runs
        // every poison call, and I-RMI fails no normal operation (neverFilter lists only login,
        // logout, buy and sell, so a wrongly named read operation would fail here).
        ExperimentResult poison = result("poison");

        assertThat(figure(poison, "plain.poisonCallsRejected")).isZero();
        assertThat(figure(poison, "irmi.poisonCallsRejected")).isPositive();
        assertThat(figure(poison, "irmi.falsePositives")).isZero();
    }

    @Test
    void shouldKeepMoreThroughputOnIrmiThanOnPlainDuringTheLaterPoisonEpisode() {
        // The paper's harm and its removal, in the same run: the second poison call drops plain
        // JacORB's backend throughput (a 2004-like heap, its own core), I-RMI rejects it.
        ExperimentResult poison = result("poison");

        assertThat(figure(poison, "cost.heavy.laterEpisodesPercent"))
                .isGreaterThan(figure(poison, "plain.heavy.laterEpisodesPercent"));
    }

    @Test
    void shouldFindDayTraderConsistentWhenAuditedAfterEachRun() {
        ExperimentResult poison = result("poison");

        assertThat(figure(poison, "plain.auditProblems")).isZero();
        assertThat(figure(poison, "irmi.auditProblems")).isZero();
    }
}
