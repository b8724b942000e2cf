package org.irmi.bench.experiments.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.irmi.bench.experiments.Bound;
import org.irmi.bench.experiments.ExperimentResult;
import org.irmi.bench.experiments.Goal;
import org.irmi.bench.experiments.Harm;
import org.irmi.bench.experiments.Spread;
import org.junit.jupiter.api.Test;

class ResultsJsonTest {

    @Test
    void shouldRecordBothFiguresTheHarmAndTheVerdictForEveryGoal() {
        ExperimentResult result = new ExperimentResult("slow-client", "Slow client")
                .goal(new Goal("slow-client", "stressed-gc", "GCs \"per\" 100 calls", "%.2fx", Spread.of(6.0, 7.0, 5.5),
                        Spread.of(1.2, 1.0, 1.6), Bound.atMost(1.5), new Harm("GCs on plain", Spread.of(6.0, 7.0, 5.5),
                                Bound.atLeast(5))))
                .goal(new Goal("poison", "audit", "audit problems", "%.0f", null, null, Bound.atMost(0), null));

        String json = ResultsJson.render("./irmi experiments", "abc123", "2026-11-23T00:00:00Z", 3, List.of(result),
                List.of("crosstalk could not run: x"));

        assertThat(json).contains("\"commit\": \"abc123\"").contains("\"repetitions\": 3")
                .contains("\"goalsReached\": 1").contains("\"goalsTotal\": 2")
                .contains("\"goal\": \"GCs \\\"per\\\" 100 calls <= 1.5\"")
                .contains("\"plain\": {\"median\": 6, \"min\": 5.5, \"max\": 7, \"n\": 3, \"trials\": 3}")
                .contains("\"irmi\": {\"median\": 1.2, \"min\": 1, \"max\": 1.6, \"n\": 3, \"trials\": 3}")
                .contains("\"shown\": true").contains("\"reached\": true")
                .contains("\"irmi\": null").contains("\"harm\": null").contains("\"reached\": false")
                .contains("\"failures\": [\"crosstalk could not run: x\"]");
    }

    @Test
    void shouldNameTheCommitTheLauncherReadAtLaunchOverTheTreesCommitNow() {
        String before = System.getProperty("irmi.commit");
        try {
            System.setProperty("irmi.commit", "0123abc-dirty");
            assertThat(ResultsJson.commit()).isEqualTo("0123abc-dirty");
            System.clearProperty("irmi.commit");
            // without it, the tree's commit now (this test runs in a git checkout or outside one)
            assertThat(ResultsJson.commit()).matches("[0-9a-f]{40}(-dirty)?|unknown");
        } finally {
            if (before == null) {
                System.clearProperty("irmi.commit");
            } else {
                System.setProperty("irmi.commit", before);
            }
        }
    }
}
