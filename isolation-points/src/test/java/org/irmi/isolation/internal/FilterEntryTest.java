package org.irmi.isolation.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.irmi.sla.PoisonConfig;
import org.irmi.sla.ProbationConfig;
import org.junit.jupiter.api.Test;

class FilterEntryTest {
    private static final long S = 1_000_000_000L;
    private final PoisonConfig config = PoisonConfig.custom().coolDown(Duration.ofSeconds(10))
            .maxCoolDown(Duration.ofSeconds(30)).probation(new ProbationConfig(1, Duration.ofSeconds(3))).build();

    @Test
    void shouldRefuseDuringCoolDown() {
        FilterEntry e = new FilterEntry(0, config.coolDown().toNanos());
        assertThat(e.onRequest(9 * S, config)).isEqualTo(FilterEntry.Admission.REFUSE);
        assertThat(e.phase()).isEqualTo(FilterEntry.Phase.FILTERED);
    }

    @Test
    void shouldAdmitOneProbeAfterCoolDown() {
        FilterEntry e = new FilterEntry(0, config.coolDown().toNanos());
        assertThat(e.onRequest(10 * S, config)).isEqualTo(FilterEntry.Admission.ADMIT_PROBE);
        assertThat(e.phase()).isEqualTo(FilterEntry.Phase.PROBATION);
        // a second request while the probe is in flight: refused (one at a time)
        assertThat(e.onRequest(12 * S, config)).isEqualTo(FilterEntry.Admission.REFUSE);
    }

    @Test
    void shouldTrickleAtMostOneProbePerInterval() {
        FilterEntry e = new FilterEntry(0, config.coolDown().toNanos());
        e.onRequest(10 * S, config);
        e.onProbeDone(10 * S + 100, true, config);
        assertThat(e.onRequest(10 * S + S / 2, config)).isEqualTo(FilterEntry.Admission.REFUSE);
        assertThat(e.onRequest(11 * S, config)).isEqualTo(FilterEntry.Admission.ADMIT_PROBE);
    }

    @Test
    void shouldReadmitWhenHealthyForAdmitAfter() {
        FilterEntry e = new FilterEntry(0, config.coolDown().toNanos());
        e.onRequest(10 * S, config);
        assertThat(e.onProbeDone(10 * S + 1, true, config)).isEqualTo(FilterEntry.Phase.PROBATION);
        e.onRequest(11 * S, config);
        assertThat(e.onProbeDone(11 * S + 1, true, config)).isEqualTo(FilterEntry.Phase.PROBATION);
        e.onRequest(13 * S, config);
        assertThat(e.onProbeDone(13 * S + 1, true, config)).isEqualTo(FilterEntry.Phase.READMITTED);
        assertThat(e.onRequest(14 * S, config)).isEqualTo(FilterEntry.Admission.ADMIT);
    }

    @Test
    void shouldRefilterWithDoubledCoolDownWhenProbeIsUnhealthy() {
        FilterEntry e = new FilterEntry(0, config.coolDown().toNanos());
        e.onRequest(10 * S, config);
        assertThat(e.onProbeDone(14 * S, false, config)).isEqualTo(FilterEntry.Phase.FILTERED);
        assertThat(e.coolDownNanos()).isEqualTo(20 * S);
        assertThat(e.timesFiltered()).isEqualTo(2);
        assertThat(e.onRequest(33 * S, config)).isEqualTo(FilterEntry.Admission.REFUSE);
        assertThat(e.onRequest(34 * S, config)).isEqualTo(FilterEntry.Admission.ADMIT_PROBE);
    }

    @Test
    void shouldCapCoolDownAtMaximum() {
        FilterEntry e = new FilterEntry(0, config.coolDown().toNanos());
        long now = 0;
        for (int i = 0; i < 5; i++) {
            now += e.coolDownNanos();
            assertThat(e.onRequest(now, config)).isEqualTo(FilterEntry.Admission.ADMIT_PROBE);
            e.onProbeDone(now, false, config);
        }
        assertThat(e.coolDownNanos()).isEqualTo(30 * S);
    }
}
