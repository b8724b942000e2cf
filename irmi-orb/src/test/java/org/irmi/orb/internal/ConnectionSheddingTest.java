package org.irmi.orb.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.irmi.orb.internal.ConnectionShedding.FIRST_MESSAGE_GRACE_NANOS;
import static org.irmi.orb.internal.ConnectionShedding.STALLED_AFTER_NANOS;

import java.util.List;

import org.irmi.orb.internal.ConnectionShedding.Candidate;
import org.irmi.orb.internal.ConnectionShedding.Reason;
import org.junit.jupiter.api.Test;

/** Who is shed at a connection limit, and in what order: pure ranking, exact. */
class ConnectionSheddingTest {

    private static final long IDLE_AFTER = 10_000_000_000L;
    private static final long SECOND = 1_000_000_000L;

    @Test
    void shouldShedAConnectionThatNeverCompletedAMessageOnceItsGraceIsOver() {
        assertThat(ConnectionShedding.reasonOf(false, FIRST_MESSAGE_GRACE_NANOS, false, true, 0, IDLE_AFTER))
                .isEqualTo(Reason.NEVER_COMPLETED);
        assertThat(ConnectionShedding.reasonOf(false, FIRST_MESSAGE_GRACE_NANOS - 1, false, true, 0, IDLE_AFTER))
                .as("a newcomer within its grace").isNull();
    }

    @Test
    void shouldShedAStalledMessageButNotOneThatIsArriving() {
        assertThat(ConnectionShedding.reasonOf(true, 60 * SECOND, false, true, STALLED_AFTER_NANOS, IDLE_AFTER))
                .isEqualTo(Reason.STALLED);
        assertThat(ConnectionShedding.reasonOf(true, 60 * SECOND, false, true, STALLED_AFTER_NANOS - 1, IDLE_AFTER))
                .isNull();
    }

    @Test
    void shouldShedAnIdleConnectionOnlyAfterTheIdleTime() {
        assertThat(ConnectionShedding.reasonOf(true, 60 * SECOND, false, false, IDLE_AFTER, IDLE_AFTER)).isEqualTo(Reason.IDLE);
        assertThat(ConnectionShedding.reasonOf(true, 60 * SECOND, false, false, IDLE_AFTER - 1, IDLE_AFTER))
                .as("served recently: it keeps its place").isNull();
    }

    @Test
    void shouldNeverShedABusyConnection() {
        assertThat(ConnectionShedding.reasonOf(true, 60 * SECOND, true, false, 60 * SECOND, IDLE_AFTER)).isNull();
        assertThat(ConnectionShedding.reasonOf(true, 60 * SECOND, true, true, 60 * SECOND, IDLE_AFTER)).isNull();
    }

    @Test
    void shouldTakeNeverCompletedThenStalledAndNoIdleWhileThoseRemain() {
        List<Candidate<String>> picked = ConnectionShedding.pick(List.of(
                new Candidate<>("idle", Reason.IDLE, 50, 99 * SECOND),
                new Candidate<>("stalled", Reason.STALLED, 1, SECOND),
                new Candidate<>("never", Reason.NEVER_COMPLETED, 1, SECOND)), 32);

        assertThat(picked).extracting(Candidate::connection).containsExactly("never", "stalled");
    }

    @Test
    void shouldTakeTheHostWithTheMostConnectionsFirstThenTheQuietestWithinAHost() {
        List<Candidate<String>> picked = ConnectionShedding.pick(List.of(
                new Candidate<>("small host", Reason.NEVER_COMPLETED, 3, 90 * SECOND),
                new Candidate<>("big host, young", Reason.NEVER_COMPLETED, 10, 2 * SECOND),
                new Candidate<>("big host, old", Reason.NEVER_COMPLETED, 10, 30 * SECOND)), 2);

        assertThat(picked).extracting(Candidate::connection).containsExactly("big host, old", "big host, young");
    }

    @Test
    void shouldTakeOneIdleConnectionWhenNothingElseMayGo() {
        List<Candidate<String>> picked = ConnectionShedding.pick(List.of(
                new Candidate<>("a", Reason.IDLE, 1, 20 * SECOND),
                new Candidate<>("b", Reason.IDLE, 1, 40 * SECOND)), 32);

        assertThat(picked).extracting(Candidate::connection).containsExactly("b");
    }

    @Test
    void shouldTakeNoneWhenNoneMayGo() {
        assertThat(ConnectionShedding.pick(List.<Candidate<String>>of(), 32)).isEmpty();
    }

    @Test
    void shouldTakeAtMostTheBatch() {
        List<Candidate<Integer>> many = new java.util.ArrayList<>();
        for (int i = 0; i < 100; i++) {
            many.add(new Candidate<>(i, Reason.NEVER_COMPLETED, 100, i * SECOND));
        }
        List<Candidate<Integer>> picked = ConnectionShedding.pick(many, 32);

        assertThat(picked).hasSize(32);
        assertThat(picked.get(0).connection()).as("the quietest first").isEqualTo(99);
        assertThat(picked.get(31).connection()).isEqualTo(68);
    }
}
