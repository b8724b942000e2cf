package org.irmi.bench.echo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class CellSummaryTest {

    @Test
    void shouldTakeMiddleValueWhenCountIsOdd() {
        assertThat(CellSummary.median(5, 1, 9)).isEqualTo(5);
    }

    @Test
    void shouldAverageTwoMiddleValuesWhenCountIsEven() {
        assertThat(CellSummary.median(4, 1, 9, 6)).isEqualTo(5);
    }

    @Test
    void shouldTakeMedianServerCpuOfWatchedTrialsWhenOneTrialWasNotWatched() {
        LoadResult r = LoadResult.parse("""
                ECHO-LOAD connections=4 connected=4 payload=100 seconds=1.000 calls=1000 errors=0 mismatches=0 \
                calls_per_sec=1000.0 p50_us=1.0 p90_us=1.0 p99_us=1.0 p999_us=1.0 max_us=1.0 ramp_ms=1
                ECHO-HIST 1000:1000
                """);
        // 10 ms, 20 ms and 40 ms of server CPU over 1,000 calls: 10, 20 and 40 us per call.
        List<LoadRun.Trial> trials = List.of(new LoadRun.Trial(r, 5, 1024, 4, 1, -1, 10_000_000),
                new LoadRun.Trial(r, 5, 1024, 4, 1, -1, 40_000_000), new LoadRun.Trial(r, 5, 1024, 4, 1, -1),
                new LoadRun.Trial(r, 5, 1024, 4, 1, -1, 20_000_000));

        assertThat(CellSummary.of("omniorb", 100, 4, trials, List.of()).serverCpuMicrosPerCall()).isEqualTo(20.0);
    }

    @Test
    void shouldReportFailureWhenNoTrialCompleted() {
        CellSummary s = CellSummary.of("irmi", 100, 16, List.of(), List.of("server process ended"));

        assertThat(s.measured()).isFalse();
        assertThat(s.failures()).isEqualTo(1);
        assertThat(s.lastFailure()).isEqualTo("server process ended");
    }
}
