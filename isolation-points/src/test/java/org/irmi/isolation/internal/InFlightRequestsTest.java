package org.irmi.isolation.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class InFlightRequestsTest {
    private final InFlightRequests inFlight = new InFlightRequests();

    @Test
    void shouldForgetARequestWhenItEnds() {
        inFlight.admit(1, "buy", false, 0);

        InFlightRequests.Admitted ended = inFlight.end(1);

        assertThat(ended).isEqualTo(new InFlightRequests.Admitted("buy", false, 0));
        assertThat(inFlight.end(1)).isNull();
        assertThat(inFlight.size()).isZero();
    }

    @Test
    void shouldNameOnlyRequestsAdmittedSinceTheEpisodesFirstEdgeWhenTakingS2() {
        inFlight.admit(1, "slow", false, 0);
        inFlight.admit(2, "buy", false, 1);
        inFlight.admit(3, "sell", true, 2);

        assertThat(inFlight.signaturesAdmittedSince(1)).containsExactlyInAnyOrder("buy", "sell");
        assertThat(inFlight.signatures()).containsExactlyInAnyOrder("slow", "buy", "sell");
    }

    @Test
    void shouldPendOnlyS1RequestsAdmittedBeforeTheEdgeCountWhenAnEpisodeFalls() {
        inFlight.admit(1, "slow", false, 0);
        inFlight.admit(2, "slow", false, 1);
        inFlight.admit(3, "buy", false, 0);

        assertThat(inFlight.keysAdmittedBefore(1, Set.of("slow"))).containsExactly(1L);
    }
}
