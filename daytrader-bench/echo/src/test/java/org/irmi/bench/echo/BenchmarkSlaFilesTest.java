package org.irmi.bench.echo;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URISyntaxException;
import java.nio.file.Path;

import org.irmi.sla.PoisonConfig;
import org.irmi.sla.Sla;
import org.junit.jupiter.api.Test;

/** The SLA files of the overhead variants load, and say what docs/benchmarks/overhead.md claims. */
class BenchmarkSlaFilesTest {

    private static Sla load(String name) throws URISyntaxException {
        return Sla.load(Path.of(BenchmarkSlaFilesTest.class.getResource("/sla/" + name).toURI()));
    }

    @Test
    void shouldMeasureEveryRequestWithAPoisonPointThatCannotActWhenMonitoringOnly() throws Exception {
        Sla sla = load("irmi-mon.yaml");

        assertThat(sla.monitors().perRequestCost()).isTrue();
        assertThat(sla.objectives()).isNotEmpty();
        assertThat(sla.isolationPoints().slowClient()).isEmpty();
        assertThat(sla.isolationPoints().crosstalk()).isEmpty();
        PoisonConfig poison = sla.isolationPoints().poison().orElseThrow();
        assertThat(poison.enabled()).isTrue();
        assertThat(poison.throughputDropPercent()).isEqualTo(99);
        assertThat(poison.isProtected("echoBytes")).isTrue();
    }

    @Test
    void shouldInstallNoPointWhenObjectivesOnly() throws Exception {
        Sla sla = load("irmi-slo.yaml");

        assertThat(sla.objectives()).isNotEmpty();
        assertThat(sla.isolationPoints().slowClient()).isEmpty();
        assertThat(sla.isolationPoints().poison()).isEmpty();
        assertThat(sla.isolationPoints().crosstalk()).isEmpty();
    }

    @Test
    void shouldSwitchPerRequestCostOffWhenPoisonWithoutCost() throws Exception {
        Sla sla = load("irmi-mon-nocost.yaml");

        assertThat(sla.monitors().perRequestCost()).isFalse();
        assertThat(sla.isolationPoints().poison()).hasValueSatisfying(p -> assertThat(p.isProtected("echoBytes")).isTrue());
    }

    @Test
    void shouldInstallEveryIsolationPointWhenAllOn() throws Exception {
        Sla sla = load("irmi-all.yaml");

        assertThat(sla.monitors().perRequestCost()).isTrue();
        assertThat(sla.isolationPoints().slowClient()).hasValueSatisfying(p -> assertThat(p.enabled()).isTrue());
        assertThat(sla.isolationPoints().crosstalk()).hasValueSatisfying(p -> assertThat(p.enabled()).isTrue());
        PoisonConfig poison = sla.isolationPoints().poison().orElseThrow();
        assertThat(poison.enabled()).isTrue();
        assertThat(poison.isProtected("echoBytes")).isTrue();
    }
}
