package org.irmi.monitors.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class PairWindowTest {
    private static final long S = 1_000_000_000L;

    @Test
    void shouldEstimateQueueAsInMinusOutWhenFanOutIsOne() {
        PairWindow w = new PairWindow(5 * S, 1.0);
        w.onTick(0, 0, 0);
        PairWindow.Sample s = w.onTick(S, 100, 60);
        assertThat(s.queueEstimate()).isEqualTo(40.0);
        assertThat(s.inRate()).isEqualTo(100.0);
        assertThat(s.outRate()).isEqualTo(60.0);
        assertThat(s.growthPerSecond()).isEqualTo(40.0);
    }

    @Test
    void shouldMultiplyIncomingByFanOutWhenEachCallCausesSeveral() {
        PairWindow w = new PairWindow(5 * S, 3.0);
        w.onTick(0, 0, 0);
        PairWindow.Sample s = w.onTick(S, 10, 25);
        assertThat(s.queueEstimate()).isEqualTo(5.0);
        assertThat(s.growthPerSecond()).isEqualTo(5.0);
    }

    @Test
    void shouldFloorQueueAtZeroWhenMoreGoesOutThanCameIn() {
        PairWindow w = new PairWindow(5 * S, 1.0);
        w.onTick(0, 0, 0);
        w.onTick(S, 10, 30);
        PairWindow.Sample s = w.onTick(2 * S, 30, 40);
        // step 1: max(0, 0 + 10 - 30) = 0; step 2: max(0, 0 + 20 - 10) = 10
        assertThat(s.queueEstimate()).isEqualTo(10.0);
    }

    @Test
    void shouldComputeRatesOverTheWindowOnlyWhenOlderSamplesFallOut() {
        PairWindow w = new PairWindow(2 * S, 1.0);
        w.onTick(0, 0, 0);
        w.onTick(S, 1000, 1000);       // a burst long ago
        w.onTick(2 * S, 1010, 1010);
        w.onTick(3 * S, 1020, 1020);
        PairWindow.Sample s = w.onTick(4 * S, 1030, 1030);
        // base is the sample at 2s (= now - window): (1030 - 1010) / 2s
        assertThat(s.inRate()).isCloseTo(10.0, within(1e-9));
        assertThat(s.outRate()).isCloseTo(10.0, within(1e-9));
    }

    @Test
    void shouldReportZeroRatesWhenOnlyOneSampleExists() {
        PairWindow w = new PairWindow(S, 1.0);
        PairWindow.Sample s = w.onTick(5 * S, 100, 0);
        assertThat(s.inRate()).isZero();
        assertThat(s.queueEstimate()).isZero();
    }
}
