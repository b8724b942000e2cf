package org.irmi.bench.experiments.internal.crosstalk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.irmi.bench.experiments.RunLength;
import org.irmi.bench.experiments.internal.OrbKind;
import org.irmi.bench.experiments.internal.crosstalk.CrosstalkExperiment.Case;
import org.junit.jupiter.api.Test;

/** The crosstalk goals' arithmetic: worst ratios, the fewest streams that show the harm, the weights' order. */
class CrosstalkReportTest {

    private static final Case PLAIN_ALONE = new Case("plain alone", OrbKind.PLAIN, 0, 0);
    private static final Case PLAIN_ONE = new Case("plain + 1 stream", OrbKind.PLAIN, 0, 1);

    @Test
    void shouldTakeTheWorstRatioOverTheSizesOfOneMegabyteAndMore() {
        Map<Case, Map<Integer, long[]>> trial = new LinkedHashMap<>();
        trial.put(PLAIN_ALONE, sizes(Map.of(512 << 10, 100L, 1 << 20, 100L, 2 << 20, 200L)));
        trial.put(PLAIN_ONE, sizes(Map.of(512 << 10, 900L, 1 << 20, 150L, 2 << 20, 500L)));

        // 512 KB (9x) is below the goal's sizes; 1 MB is 1.5x, 2 MB 2.5x.
        assertThat(CrosstalkReport.worstRatio(trial, PLAIN_ALONE, PLAIN_ONE)).isEqualTo(2.5);
        assertThat(CrosstalkReport.totalRatio(trial, PLAIN_ALONE, PLAIN_ONE)).isEqualTo(650.0 / 300.0);
        assertThat(CrosstalkReport.worstRatio(trial, PLAIN_ALONE, null)).isNaN();
    }

    @Test
    void shouldNameTheFewestStreamsWhoseMedianShowsTheHarm() {
        Map<Integer, List<Double>> plain = new TreeMap<>();
        plain.put(1, List.of(1.7, 2.3, 1.8)); // median 1.8: not shown although one trial reached 2
        plain.put(2, List.of(2.1, 1.9, 2.2)); // median 2.1
        plain.put(4, List.of(3.0, 3.0, 3.0));

        assertThat(CrosstalkReport.fewestStreamsShowingHarm(plain)).isEqualTo(2);
        assertThat(CrosstalkReport.fewestStreamsShowingHarm(Map.of(1, List.of(1.0, 1.5, 1.9)))).isZero();
    }

    @Test
    void shouldCountSizesWhereAHeavierWeightLiesMoreThanTenPercentAboveALighterOne() {
        Map<Case, Map<Integer, Double>> curves = new LinkedHashMap<>();
        double[] atOneMb = {10, 9, 9.5, 8}; // 4x within 10% of 2x: ordered
        double[] atTwoMb = {20, 18, 16, 18}; // 8x 12.5% above 4x: out of order
        double[] atFourMb = {40, 30, 20, 10};
        for (int i = 0; i < CrosstalkExperiment.WEIGHTS.length; i++) {
            int weight = CrosstalkExperiment.WEIGHTS[i];
            curves.put(new Case(weight + "x", OrbKind.IRMI, weight, 4), new TreeMap<>(Map.of(1 << 20, atOneMb[i], 2 << 20, atTwoMb[i])));
        }
        assertThat(CrosstalkReport.orderViolations(curves, 4)).as("4 MB measured on no curve counts against the order").isEqualTo(2);
        int i = 0;
        for (Map<Integer, Double> curve : curves.values()) {
            curve.put(4 << 20, atFourMb[i++]);
            curve.put(8 << 20, 1.0); // the largest size on loopback
        }

        assertThat(CrosstalkReport.orderViolations(curves, 4)).isEqualTo(1);
        assertThat(CrosstalkReport.orderViolations(curves, 1)).as("no curves with one stream").isEqualTo(-1);
    }

    @Test
    void shouldPlanOneTwoAndTheMostStreamsOnBothOrbsAndEveryWeightWithOneAndWithTheMostStreams() {
        List<Case> full = CrosstalkExperiment.plan(RunLength.FULL, true, true);
        int most = CrosstalkExperiment.MANY_STREAMS;

        for (int s : new int[] {0, 1, 2, most}) {
            assertThat(full).as("plain with %d streams", s).anyMatch(c -> c.orb() == OrbKind.PLAIN && c.streams() == s);
            assertThat(full).as("I-RMI 8x with %d streams", s).anyMatch(c -> c.orb() == OrbKind.IRMI
                    && c.weight() == CrosstalkExperiment.GOAL_WEIGHT && c.streams() == s);
        }
        for (int weight : CrosstalkExperiment.WEIGHTS) {
            assertThat(full).as("weight %d, one stream", weight).anyMatch(c -> c.weight() == weight && c.streams() == 1);
            assertThat(full).as("weight %d, %d streams", weight, most).anyMatch(c -> c.weight() == weight && c.streams() == most);
        }
        assertThat(full).extracting(Case::label).doesNotHaveDuplicates();
        assertThat(full).as("one comparison with the weights per connection").filteredOn(Case::perConnection)
                .singleElement().satisfies(c -> assertThat(c.streams()).isEqualTo(most));
        assertThat(CrosstalkExperiment.plan(RunLength.QUICK, true, true)).noneMatch(Case::perConnection);
        assertThat(CrosstalkExperiment.plan(RunLength.TINY, true, false)).extracting(Case::streams).containsExactly(0, 1, most);
        assertThat(CrosstalkExperiment.plan(RunLength.QUICK, true, false)).as("quick: alone, 1 and N streams")
                .extracting(Case::streams).containsExactly(0, 1, most);
        assertThat(CrosstalkExperiment.plan(RunLength.TINY, false, true)).as("tiny (CI): weights 1x and 8x")
                .extracting(Case::weight).containsOnly(1, 8);
        assertThat(CrosstalkExperiment.plan(RunLength.QUICK, false, true)).as("quick: the goals' weight only")
                .extracting(Case::weight).containsOnly(8);
    }

    private static Map<Integer, long[]> sizes(Map<Integer, Long> medians) {
        Map<Integer, long[]> bySize = new TreeMap<>();
        medians.forEach((size, median) -> bySize.put(size, new long[] {median, median, median}));
        return bySize;
    }
}
