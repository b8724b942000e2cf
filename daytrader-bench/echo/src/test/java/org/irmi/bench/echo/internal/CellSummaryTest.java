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
    void shouldReportFailureWhenNoTrialCompleted() {
        CellSummary s = CellSummary.of("irmi", 100, 16, List.of(), List.of("server process ended"));

        assertThat(s.measured()).isFalse();
        assertThat(s.failures()).isEqualTo(1);
        assertThat(s.lastFailure()).isEqualTo("server process ended");
    }
}
