package org.irmi.bench.experiments.internal.normalday;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;

import org.irmi.bench.experiments.internal.ProgressBar;
import org.junit.jupiter.api.Test;

class JitWarmUpTest {

    private final ProgressBar bar = new ProgressBar(new PrintStream(new ByteArrayOutputStream()));

    @Test
    void shouldNotCallAGoneProcessSettledAndNotWaitForIt() throws InterruptedException {
        long start = System.nanoTime();
        JitWarmUp.Outcome outcome = JitWarmUp.await(Integer.MAX_VALUE, 60_000, bar, "gone", () -> false);

        assertThat(outcome.settled()).isFalse();
        assertThat((System.nanoTime() - start) / 1_000_000).as("no span waited").isLessThan(JitWarmUp.SPAN_MILLIS);
    }

    @Test
    void shouldEndTheWaitWhenToldToStop() throws InterruptedException {
        JitWarmUp.Outcome outcome = JitWarmUp.await(ProcessHandle.current().pid(), 60_000, bar, "stopped", () -> true);

        assertThat(outcome.settled()).isFalse();
        assertThat(outcome.extraMillis()).isLessThan(JitWarmUp.SPAN_MILLIS);
    }

    @Test
    void shouldNotWaitWhenTheCapIsShorterThanASpan() throws InterruptedException {
        JitWarmUp.Outcome outcome = JitWarmUp.await(ProcessHandle.current().pid(), JitWarmUp.SPAN_MILLIS - 1, bar, "short", () -> false);

        assertThat(outcome.settled()).isFalse();
        assertThat(outcome.extraMillis()).isLessThan(JitWarmUp.SPAN_MILLIS);
    }
}
