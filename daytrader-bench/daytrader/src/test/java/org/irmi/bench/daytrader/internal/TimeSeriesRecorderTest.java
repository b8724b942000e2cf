package org.irmi.bench.daytrader.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.irmi.bench.daytrader.LatencySummary;
import org.irmi.bench.daytrader.OperationSecond;
import org.irmi.bench.daytrader.SecondSample;
import org.junit.jupiter.api.Test;

class TimeSeriesRecorderTest {
    private final TimeSeriesRecorder recorder = new TimeSeriesRecorder(3);

    @Test
    void shouldCountCallsAndErrorsOfOneSecondPerOperation() {
        recorder.record("buy", 2_000_000, false);
        recorder.record("buy", 4_000_000, true);
        recorder.record("getQuote", 100_000, false);
        SecondSample s = recorder.roll(10, 0, 0, 0);
        assertThat(s.getOperations()).extracting(OperationSecond::getOperation).containsExactly("buy", "getQuote");
        OperationSecond buy = s.getOperations().get(0);
        assertThat(buy.getCount()).isEqualTo(2);
        assertThat(buy.getErrors()).isEqualTo(1);
        assertThat(buy.getMaxMicros()).isBetween(3_960L, 4_040L); // 2 significant digits
        assertThat(s.getTotalCount()).isEqualTo(3);
    }

    @Test
    void shouldStartEachSecondEmpty() {
        recorder.record("buy", 1_000_000, false);
        recorder.roll(10, 0, 0, 0);
        assertThat(recorder.roll(11, 0, 0, 0).getOperations()).isEmpty();
    }

    @Test
    void shouldReportGcCountsAsDifferencesFromTheFirstReading() {
        assertThat(recorder.roll(10, 100, 500, 0).getGcCount()).isZero();
        SecondSample s = recorder.roll(11, 103, 530, 7);
        assertThat(s.getGcCount()).isEqualTo(3);
        assertThat(s.getGcMillis()).isEqualTo(30);
        assertThat(s.getHeapUsedBytes()).isEqualTo(7);
    }

    @Test
    void shouldKeepOnlyTheLastCapacitySeconds() {
        for (long sec = 1; sec <= 5; sec++) {
            recorder.roll(sec, 0, 0, 0);
        }
        assertThat(recorder.since(0)).extracting(SecondSample::getEpochSecond).containsExactly(3L, 4L, 5L);
        assertThat(recorder.since(5)).hasSize(1);
    }

    @Test
    void shouldSummarizeEveryCallSinceTheLastReset() {
        recorder.roll(100, 0, 0, 0);
        for (int i = 1; i <= 100; i++) {
            recorder.record("home", i * 1_000_000L, false);
        }
        recorder.roll(101, 0, 0, 0);
        List<LatencySummary> all = recorder.summary(true, 110);
        LatencySummary home = all.get(0);
        assertThat(home.getOperation()).isEqualTo("home");
        assertThat(home.getCount()).isEqualTo(100);
        assertThat(home.getP99Micros()).isBetween(98_000L, 100_000L);
        assertThat(home.getSpanSeconds()).isEqualTo(10.0);
        assertThat(all.get(all.size() - 1).getOperation()).isEqualTo("*");
        assertThat(recorder.summary(false, 111).get(0).getCount()).isZero();
    }
}
