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
                .containsExactly("normal-day", "poison", "slow-client", "crosstalk");
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
    void shouldHoldSecondaryStreamsBackBehindTheHeavyStreamOnlyWhenItsRuleOutweighsTheirs() throws Exception {
        // The crosstalk mechanism, in the experiment's own servers: with the large stream weighted 8x, I-RMI's
        // reader deferred the 2 KB streams' reads while a large request was in the middle of being read; with
        // equal weights (1x) and one stream it never did. With 1x and N streams it does: the SLA shares a weight
        // per rule (weightPer: rule), so the N streams share weight 1 and each is lighter than the large stream.
        ExperimentResult crosstalk = result("crosstalk");
        int streams = org.irmi.bench.experiments.internal.crosstalk.CrosstalkExperiment.MANY_STREAMS;

        assertThat(figure(crosstalk, "irmi.readDeferrals.8x.1streams")).isPositive();
        assertThat(figure(crosstalk, "irmi.readDeferrals.8x." + streams + "streams")).isPositive();
        assertThat(figure(crosstalk, "irmi.readDeferrals.1x.1streams")).isZero();
        assertThat(figure(crosstalk, "irmi.readDeferrals.1x." + streams + "streams")).isPositive();
    }

    @Test
    void shouldReadTheLargeRequestFasterOnIrmiAt8xThanOnPlainOrAt1xWhenSecondaryStreamsShareTheLink() {
        // The directions of Figures 8 and 9, over the emulated 100 Mbit/s link (the clients in a network
        // namespace of their own): a 2 KB stream takes half the link from the large stream on plain JacORB
        // (2.2x-2.6x in tiny runs), and far less on I-RMI at 8x (1.1x-1.2x); with equal weights (1x) the
        // N streams take more than at 8x. Only directions: the tiny run measures 5 requests per size.
        ExperimentResult crosstalk = result("crosstalk");
        int streams = org.irmi.bench.experiments.internal.crosstalk.CrosstalkExperiment.MANY_STREAMS;
        double plainOne = figure(crosstalk, "plain.ratio.1streams");
        double irmiOne = figure(crosstalk, "irmi.ratio.1streams");
        double irmiMany = figure(crosstalk, "irmi.ratio." + streams + "streams");
        double irmiManyOneX = figure(crosstalk, "irmi.ratio.1x." + streams + "streams");
        System.out.println("crosstalk: one stream: plain " + plainOne + "x, I-RMI 8x " + irmiOne + "x; " + streams
                + " streams: I-RMI 8x " + irmiMany + "x, I-RMI 1x " + irmiManyOneX + "x");

        assertThat(irmiOne).as("I-RMI 8x against plain JacORB, one 2 KB stream").isLessThan(plainOne);
        assertThat(irmiMany).as("I-RMI 8x against 1x, " + streams + " 2 KB streams").isLessThan(irmiManyOneX);
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
    void shouldServeANormalDayOnIrmiNearPlainJacorbsThroughputWithoutRefusingAnything() {
        // The direction of the normal-day goals (0.97x at full length): a drop like the 0.77x that once went
        // unnoticed for three full runs fails here. The tiny run has 8 s of warm-up and 5 s measured, with
        // I-RMI's JIT still busier than plain JacORB's (docs/experiments.md), so only the midpoint between that
        // drop and parity is asked. Nothing is wrong in these trials, so nothing may fail.
        ExperimentResult day = result("normal-day");

        assertThat(figure(day, "cost.heavy.throughputRatio")).as("normal throughput, I-RMI / plain JacORB").isGreaterThan(0.85);
        assertThat(day.goals()).filteredOn(g -> g.id().equals("refused")).singleElement()
                .satisfies(g -> assertThat(g.irmi().median()).as("normal operations failed on I-RMI").isZero());
    }

    @Test
    void shouldFindDayTraderConsistentWhenAuditedAfterEachRun() {
        ExperimentResult poison = result("poison");

        assertThat(figure(poison, "plain.auditProblems")).isZero();
        assertThat(figure(poison, "irmi.auditProblems")).isZero();
    }
}
