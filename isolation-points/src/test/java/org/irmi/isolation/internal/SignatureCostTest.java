package org.irmi.isolation.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SignatureCostTest {

    @Test
    void shouldEstimateTheCpuOfUnmeasuredRequestsFromTheMeasuredOnes() {
        SignatureCost c = new SignatureCost();
        c.add(100, 10);
        c.add(300, 0);
        c.add(-1, 5);
        c.add(-1, -3);

        // mean of the measured (200) times all four requests; allocation summed where positive; the
        // costliest measured request's CPU (300) and allocation (10)
        assertThat(c.totals()).isEqualTo(new CostTotals(4, 800, 15, 300, 10));
    }

    @Test
    void shouldSumTheCpuAsMeasuredWhenEveryRequestWasMeasured() {
        SignatureCost c = new SignatureCost();
        c.add(100, 0);
        c.add(50, 0);

        assertThat(c.totals()).isEqualTo(new CostTotals(2, 150, 0, 100, 0));
    }

    @Test
    void shouldTotalEachSignatureAndNothingForNull() {
        SignatureCost buy = new SignatureCost();
        buy.add(7, 8);

        assertThat(SignatureCost.totals(Map.of("buy", buy))).containsOnly(Map.entry("buy", new CostTotals(1, 7, 8, 7, 8)));
        assertThat(SignatureCost.totals(null)).isEmpty();
    }
}
