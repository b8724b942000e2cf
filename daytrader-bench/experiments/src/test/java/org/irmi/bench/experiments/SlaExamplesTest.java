package org.irmi.bench.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.irmi.bench.experiments.internal.SlaFiles;
import org.irmi.sla.Sla;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The experiments' SLA files are worked examples: they must stay valid against the SLA schema. */
class SlaExamplesTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"slow-client.yaml", "crosstalk.yaml", "poison.yaml", "poison-setdiff.yaml"})
    void shouldLoadWithoutErrorsWhenParsedBySlaSchema(String file) throws Exception {
        Sla sla = Sla.load(SlaFiles.extract(dir, file));

        assertThat(sla.service()).isNotBlank();
    }

    @Test
    void shouldInstallTheSlowClientPointWhenSlowClientSlaLoaded() throws Exception {
        Sla sla = Sla.load(SlaFiles.extract(dir, "slow-client.yaml"));

        assertThat(sla.isolationPoints().slowClient()).isPresent();
    }

    @Test
    void shouldInstallThePoisonPointWhenPoisonSlaLoaded() throws Exception {
        Sla sla = Sla.load(SlaFiles.extract(dir, "poison.yaml"));

        assertThat(sla.isolationPoints().poison()).isPresent();
    }

    @Test
    void shouldNameByTheSetDifferenceOnlyWhenPoisonSetDifferenceSlaLoaded() throws Exception {
        Sla sla = Sla.load(SlaFiles.extract(dir, "poison-setdiff.yaml"));

        assertThat(sla.isolationPoints().poison().orElseThrow().attribution()).isFalse();
        assertThat(sla.isolationPoints().poison().orElseThrow().confirmEpisodes()).isEqualTo(2);
    }

    @Test
    void shouldWeightTheLargeStreamEightTimesWhenCrosstalkSlaLoaded() throws Exception {
        Sla sla = Sla.load(SlaFiles.extract(dir, "crosstalk.yaml"));

        assertThat(sla.isolationPoints().crosstalk().orElseThrow().weights())
                .anySatisfy(weight -> assertThat(weight.weight()).isEqualTo(8));
    }
}
