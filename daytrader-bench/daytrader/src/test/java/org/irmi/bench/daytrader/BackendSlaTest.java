package org.irmi.bench.daytrader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.irmi.sla.Sla;
import org.junit.jupiter.api.Test;

/** The SLA {@code ./irmi daytrader --orb irmi} gives the backend (and so its dashboard). */
class BackendSlaTest {

    @Test
    void shouldInstallThePoisonAndCrosstalkPointsWithObjectivesWhenTheBundledSlaIsLoaded() throws Exception {
        String yaml;
        try (InputStream in = DayTraderMain.class.getResourceAsStream("backend-sla.yaml")) {
            assertThat(in).as("backend-sla.yaml beside DayTraderMain").isNotNull();
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }

        Sla sla = Sla.parse(yaml, "backend-sla.yaml"); // throws with file:line:col for any error

        assertThat(sla.service()).isEqualTo("daytrader-backend");
        assertThat(sla.objectives()).isNotEmpty();
        assertThat(sla.isolationPoints().poison()).isPresent();
        assertThat(sla.isolationPoints().crosstalk()).isPresent();
    }
}
