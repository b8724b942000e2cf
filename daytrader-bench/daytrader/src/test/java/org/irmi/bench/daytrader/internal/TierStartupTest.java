package org.irmi.bench.daytrader.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.irmi.bench.daytrader.OrbChoice;
import org.junit.jupiter.api.Test;

class TierStartupTest {
    private static final Set<String> KNOWN = Set.of("orb", "users", "quotes");

    private static TierStartup startup(String... argv) {
        return new TierStartup(Args.parse(argv, KNOWN, Set.of(TierStartup.WATCH_STDIN)), OrbChoice.IRMI);
    }

    @Test
    void shouldGiveTheSharedDefaultsWhenUsersAndQuotesAreNotGiven() {
        TierStartup s = startup();
        assertThat(s.users()).isEqualTo(15_000);
        assertThat(s.quotes()).isEqualTo(10_000);
    }

    @Test
    void shouldGiveTheOptionsWhenUsersAndQuotesAreGiven() {
        TierStartup s = startup("--users", "300", "--quotes=200", "--watch-stdin");
        assertThat(s.users()).isEqualTo(300);
        assertThat(s.quotes()).isEqualTo(200);
    }

    @Test
    void shouldRefuseUsersBelowOneWhenAsked() {
        assertThatThrownBy(() -> startup("--users", "0").users()).hasMessageContaining("--users must be >= 1, was 0");
    }
}
