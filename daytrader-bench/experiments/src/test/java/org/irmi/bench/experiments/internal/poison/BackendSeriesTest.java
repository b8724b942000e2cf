package org.irmi.bench.experiments.internal.poison;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Set;

import org.junit.jupiter.api.Test;

class BackendSeriesTest {

    private static final String CSV = """
            epochSecond,operation,count,errors,meanMicros,p50Micros,p99Micros,maxMicros,gcCount,gcMillis,heapUsedBytes
            100,getQuote,30,0,1000.0,900,2000,3000,,,
            100,buy,10,0,4000.0,3000,9000,9000,,,
            100,*,40,0,,,,,2,15,1000
            101,getQuote,10,1,2000.0,900,2000,3000,,,
            101,poison,1,0,4000000.0,4000000,4000000,4000000,,,
            101,*,11,1,,,,,40,300,2000
            """;

    private final BackendSeries series = BackendSeries.parse(CSV, Set.of("poison"));

    @Test
    void shouldLeaveThePoisonOutWhenCountingNormalCalls() {
        assertThat(series.all()).extracting(BackendSeries.Second::normalCalls).containsExactly(40L, 10L);
    }

    @Test
    void shouldWeightTheMeanByCountsWhenAveragingOperations() {
        // (30 x 1 ms + 10 x 4 ms) / 40 = 1.75 ms
        assertThat(series.all().get(0).normalMeanMillis()).isCloseTo(1.75, within(1e-9));
    }

    @Test
    void shouldTakeGcFromTheTotalsRowWhenParsing() {
        assertThat(series.all().get(1).gcCount()).isEqualTo(40);
    }

    @Test
    void shouldAverageOverTheSpanWhenComputingThroughput() {
        assertThat(series.throughput(100, 102)).isEqualTo(25.0);
    }

    @Test
    void shouldCountErrorsByOperationWhenNormalOperationsFail() {
        assertThat(series.errorsByOperation()).containsEntry("getQuote", 1L).hasSize(1);
    }
}
