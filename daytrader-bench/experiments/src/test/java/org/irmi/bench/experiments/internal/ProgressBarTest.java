package org.irmi.bench.experiments.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProgressBarTest {

    @Test
    void shouldFillHalfTheBarWhenHalfThePhaseIsOver() {
        String line = ProgressBar.render("plain unloaded", 0.5, 10_000, 20_000);

        assertThat(line).isEqualTo("[" + "#".repeat(15) + ".".repeat(15) + "]  50%  plain unloaded  10/20 s");
    }

    @Test
    void shouldShowAnEmptyBarWhenThePhaseStarts() {
        assertThat(ProgressBar.render("x", 0, 0, 5_000)).startsWith("[" + ".".repeat(30) + "]   0%");
    }
}
