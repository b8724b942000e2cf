package org.irmi.bench.echo.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;

import org.irmi.bench.echo.OrbVariant;
import org.junit.jupiter.api.Test;

class BenchmarkOptionsTest {

    @Test
    void shouldMeasureIssueMatrixWhenNoOptionsGiven() {
        BenchmarkOptions o = BenchmarkOptions.parse(new String[0]);

        assertThat(o.variants()).extracting(OrbVariant::name).containsExactly("jacorb", "irmi");
        assertThat(o.payloads()).containsExactly(100, 65536);
        assertThat(o.connections()).containsExactly(1, 16, 256, 1000);
        assertThat(o.out()).isEqualTo(Path.of("results", "echo.md"));
    }

    @Test
    void shouldWriteTheDocumentationPageWhenAskedToUpdateDocs() {
        assertThat(BenchmarkOptions.parse(new String[] {"--update-docs"}).out())
                .isEqualTo(Path.of("docs", "benchmarks", "echo.md"));
        assertThat(BenchmarkOptions.parse(new String[] {"--out", "/tmp/e.md"}).out()).isEqualTo(Path.of("/tmp/e.md"));
        assertThatThrownBy(() -> BenchmarkOptions.parse(new String[] {"--update-docs", "--out", "/tmp/e.md"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--out and --update-docs");
    }

    @Test
    void shouldLoadWithOmniOrbClientUnlessAnotherClientIsAsked() {
        assertThat(BenchmarkOptions.parse(new String[0]).client()).isEqualTo(BenchmarkOptions.LoadClient.OMNIORB);
        assertThat(BenchmarkOptions.parse(new String[] {"--client", "nio"}).client()).isEqualTo(BenchmarkOptions.LoadClient.NIO);
        assertThat(BenchmarkOptions.parse(new String[] {"--client", "epoll"}).client()).isEqualTo(BenchmarkOptions.LoadClient.EPOLL);
        assertThat(BenchmarkOptions.parse(new String[] {"--client", "omniorb"}).client()).isEqualTo(BenchmarkOptions.LoadClient.OMNIORB);
        assertThatThrownBy(() -> BenchmarkOptions.parse(new String[] {"--client", "grpc"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--client: 'grpc'");
    }

    @Test
    void shouldUseFewerShorterTrialsAndOwnReportWhenQuick() {
        BenchmarkOptions full = BenchmarkOptions.parse(new String[0]);
        BenchmarkOptions quick = BenchmarkOptions.parse(new String[] {"--quick"});

        assertThat(quick.trials()).isLessThan(full.trials());
        assertThat(quick.measure()).isLessThan(full.measure());
        assertThat(quick.out()).isEqualTo(Path.of("results", "echo-quick.md"));
    }

    @Test
    void shouldAppendVariantWhenDefinedByProperties() {
        BenchmarkOptions o = BenchmarkOptions.parse(new String[] {"--variant", "irmi-mon=irmi,irmi.monitoring=true"});

        assertThat(o.variants()).extracting(OrbVariant::name).containsExactly("jacorb", "irmi", "irmi-mon");
        assertThat(o.variantSpecs()).containsEntry("irmi-mon", "irmi-mon=irmi,irmi.monitoring=true");
    }

    @Test
    void shouldRunOmniOrbServerAsThirdVariantWhenNamedInVariants() {
        BenchmarkOptions o = BenchmarkOptions.parse(new String[] {"--variants", "jacorb,irmi,omniorb",
                "--connections", "16,10000"});

        assertThat(o.variants()).extracting(OrbVariant::name).containsExactly("jacorb", "irmi", "omniorb");
        assertThat(o.variants()).extracting(OrbVariant::isJvm).containsExactly(true, true, false);
        assertThat(o.connections()).containsExactly(16, 10_000);
    }

    @Test
    void shouldNameBoundWhenConnectionsAreOutOfRange() {
        assertThatThrownBy(() -> BenchmarkOptions.parse(new String[] {"--connections", "16,0"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("--connections: 0 is outside 1..10000");
    }

    @Test
    void shouldSortConnectionsAscendingWhenGivenInAnyOrder() {
        assertThat(BenchmarkOptions.parse(new String[] {"--connections", "256,1,16"}).connections())
                .isEqualTo(List.of(1, 16, 256));
    }
}
