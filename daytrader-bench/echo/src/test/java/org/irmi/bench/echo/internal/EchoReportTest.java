package org.irmi.bench.echo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.irmi.bench.echo.OrbVariants;
import org.junit.jupiter.api.Test;

class EchoReportTest {

    private static CellSummary cell(String variant, int payload, int conns, double callsPerSecond, long errors) {
        return new CellSummary(variant, payload, conns, 5, 0, null, callsPerSecond, 100, 1000, conns + 40.0,
                300 * 1024.0, conns, errors, 10, 1, 8 * 1024.0, callsPerSecond, callsPerSecond, 12.5);
    }

    private static EchoReport report(List<CellSummary> cells) {
        BenchmarkOptions o = BenchmarkOptions.parse(new String[] {"--payloads", "100", "--connections", "16,1000"});
        return new EchoReport("./irmi echo-bench --payloads 100 --connections 16,1000", o, Instant.EPOCH,
                Instant.EPOCH.plusSeconds(60), "1 1 1", "2 2 2", 20_000,
                List.of(OrbVariants.jacorb(), OrbVariants.irmi()),
                Map.of("jacorb", new ProcessSample(48, 300 * 1024), "irmi", new ProcessSample(45, 300 * 1024)),
                Map.of("jacorb", 8 * 1024L, "irmi", 5 * 1024L), cells, List.of(), List.of());
    }

    @Test
    void shouldGiveRatioToBaselineWhenBothVariantsAreMeasured() {
        String md = report(List.of(cell("jacorb", 100, 16, 40_000, 0), cell("irmi", 100, 16, 50_000, 0),
                cell("jacorb", 100, 1000, 20_000, 0), cell("irmi", 100, 1000, 30_000, 0))).render();

        assertThat(md).contains("| 100 B | 16 | irmi | 1.25 |")
                .contains("at least equal at 16 connections: met (1.25x calls/s)")
                .contains("clearly ahead (>= 1.2x) at 1,000 connections: met (1.50x calls/s)");
    }

    @Test
    void shouldNotMeetTargetWhenCellHasFailedCalls() {
        String md = report(List.of(cell("jacorb", 100, 16, 40_000, 0), cell("irmi", 100, 16, 50_000, 3),
                cell("jacorb", 100, 1000, 20_000, 0), cell("irmi", 100, 1000, 30_000, 0))).render();

        assertThat(md).contains("at least equal at 16 connections: NOT met, 3 failed calls (1.25x calls/s)");
    }

    @Test
    void shouldNotClaimClearLeadWhenAheadByLessThanThreshold() {
        String md = report(List.of(cell("jacorb", 100, 16, 40_000, 0), cell("irmi", 100, 16, 40_000, 0),
                cell("jacorb", 100, 1000, 20_000, 0), cell("irmi", 100, 1000, 22_000, 0))).render();

        assertThat(md).contains("clearly ahead (>= 1.2x) at 1,000 connections: NOT met (1.10x calls/s)");
    }

    @Test
    void shouldShowDashForJavaOnlyColumnsWhenVariantIsOmniOrbServer() {
        BenchmarkOptions o = BenchmarkOptions.parse(new String[] {"--payloads", "100", "--connections", "16,1000",
                "--variants", "jacorb,omniorb"});
        String md = new EchoReport("./irmi echo-bench", o, Instant.EPOCH, Instant.EPOCH.plusSeconds(60), "1 1 1",
                "2 2 2", 20_000, List.of(OrbVariants.jacorb(), OrbVariants.omniorb()),
                Map.of("jacorb", new ProcessSample(48, 300 * 1024), "omniorb", new ProcessSample(5, 10 * 1024)),
                Map.of("jacorb", 8 * 1024L, "omniorb", -1L),
                List.of(cell("jacorb", 100, 16, 40_000, 0), cell("omniorb", 100, 16, 60_000, 0),
                        cell("jacorb", 100, 1000, 20_000, 0), cell("omniorb", 100, 1000, 50_000, 0)),
                List.of(), List.of()).render();

        assertThat(md).contains("| 100 B | 1,000 | omniorb | 50,000 | 12.50 | 50,000-50,000 | 0.100 | 1.000 | 1040 | - | 300 | - |")
                .contains("| 100 B | 16 | omniorb | 1.50 | 1.00 | 1.00 | 1.00 | 1.00 | - |")
                .contains("| omniorb | 56 | 1040 | 300 | 300 | - | - | 1.000 | 0.0 | - |")
                .contains("omniorb 5 threads, 10 MB RSS, - MB live heap");
    }

    @Test
    void shouldDivideGrowthBySpanOfConnectionsWhenReportingPerConnectionCost() {
        String md = report(List.of(cell("jacorb", 100, 16, 40_000, 0), cell("irmi", 100, 16, 40_000, 0),
                cell("jacorb", 100, 1000, 20_000, 0), cell("irmi", 100, 1000, 22_000, 0))).render();

        // threads = conns + 40, so exactly one thread per connection from 16 to 1,000 in this made-up data
        assertThat(md).contains("| jacorb | 56 | 1040 | 300 | 300 | 8 | 8 | 1.000 | 0.0 | 0.0 |");
    }
}
