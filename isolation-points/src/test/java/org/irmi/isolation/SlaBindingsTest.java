package org.irmi.isolation;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.irmi.sla.CausalPair;
import org.irmi.sla.Sla;
import org.junit.jupiter.api.Test;

class SlaBindingsTest {
    private static final String YAML = """
            service: trade
            monitors:
              requestRates: {length: 5s, buckets: 5}
              causalPairs: [{incoming: "publish", target: "Sink*", outgoing: "deliver", fanout: 2}]
            isolationPoints:
              slowClient:
                queueGrowth: 20/s
                maxQueueLength: 300
                heapPressure: 70%
                remoteLoad: {rtt: 20ms}
                action: {module: short-circuit}
              poison:
                confirmEpisodes: 3
                coolDown: 20s
                probation: {rate: 2/s, admitAfter: 10s}
                neverFilter: [login, "get*"]
                signatures:
                  - {name: big, operation: "buy*", offset: 4, length: 4, pattern: "text:BIG"}
              crosstalk:
                baseReadBudget: 32KiB
                weights:
                  - {client: 10.1.0.0/16, weight: 4}
                  - {objectKey: "*bulk*", weight: 2}
                  - {tag: gold, weight: 8}
            """;

    private final Sla sla = Sla.parse(YAML, "trade.yaml");

    @Test
    void shouldBuildAnEdgeDetectorWithHysteresisWhenTheSlasDropIsSmall() {
        for (String drop : new String[] {"1%", "10%", "15%", "30%", "99%"}) {
            Sla small = Sla.parse("service: trade\nisolationPoints:\n  poison:\n    throughputDrop: " + drop + "\n",
                    "drop.yaml");
            org.irmi.monitors.EdgeDetectorConfig c = SlaBindings.edges(small.isolationPoints().poison().orElseThrow());
            assertThat(c.recoveryPercent()).as(drop).isLessThan(c.throughputDropPercent());
            assertThat(org.irmi.monitors.EdgeDetector.of(c)).isNotNull();
        }
    }

    @Test
    void shouldSampleEdgesPerDetectionBucketAndKeepABaselineAsLongAsTheBaselineWindow() {
        Sla s = Sla.parse("""
                service: trade
                isolationPoints:
                  poison:
                    baselineWindow: {length: 10s, buckets: 10}
                    detectionWindow: {length: 2s, buckets: 4}
                """, "windows.yaml");
        org.irmi.sla.PoisonConfig pc = s.isolationPoints().poison().orElseThrow();
        assertThat(SlaBindings.edgeSamplePeriodNanos(pc)).isEqualTo(500_000_000L);
        assertThat(SlaBindings.edges(pc).baselineSamples()).isEqualTo(20);
    }

    @Test
    void shouldWatchOnlyTheSlasResourcesWhenPoisonNamesSome() {
        Sla gcOnly = Sla.parse("""
                service: trade
                isolationPoints:
                  poison:
                    resources: [gc]
                """, "gc-only.yaml");
        assertThat(SlaBindings.edges(gcOnly.isolationPoints().poison().orElseThrow()).resources())
                .containsExactly(org.irmi.sla.PoisonConfig.Resource.GC);
        assertThat(SlaBindings.edges(sla.isolationPoints().poison().orElseThrow()).resources())
                .containsExactlyInAnyOrder(org.irmi.sla.PoisonConfig.Resource.values());
    }

    @Test
    void shouldMatchTheSlasCausalPairTargetsAgainstOutgoingCalls() {
        assertThat(sla.monitors().causalPairs()).hasSize(1);
        CausalPair p = sla.monitors().causalPairs().get(0);
        assertThat(p.fanOut()).isEqualTo(2.0);
        assertThat(p.outgoing().matches("deliver")).isTrue();
        assertThat(OutgoingCall.of("h", 1, "SinkA", "deliver", true).targetMatches(p.target())).isTrue();
        assertThat(OutgoingCall.of("h", 1, "Other", "deliver", true).targetMatches(p.target())).isFalse();
    }

    @Test
    void shouldMatchArgumentBytesWithTheSlasSignatures() {
        org.irmi.sla.PoisonConfig c = sla.isolationPoints().poison().orElseThrow();
        assertThat(c.isProtected("getQuote")).isTrue();
        assertThat(c.isProtected("buy")).isFalse();
        org.irmi.sla.ArgumentSignature r = c.signatures().get(0);
        assertThat(r.suffix("xxxxBIG!".getBytes(StandardCharsets.UTF_8))).isEqualTo("#big");
        assertThat(r.bytesNeeded()).isEqualTo(8);
    }

    @Test
    void shouldBindCrosstalkWeightsByCidrObjectKeyAndTag() {
        java.util.List<org.irmi.sla.StreamWeight> rules = sla.isolationPoints().crosstalk().orElseThrow().weights();
        assertThat(rules).hasSize(3);
        assertThat(rules.get(0).matches("10.1.200.3")).isTrue();
        assertThat(rules.get(0).matches("10.2.0.1")).isFalse();
        assertThat(rules.get(0).matches("not-an-address")).isFalse();
        assertThat(rules.get(1).matches("POA/bulk-1")).isTrue();
        assertThat(rules.get(2).matches("gold")).isTrue();
        assertThat(rules.get(2).weight()).isEqualTo(8.0);
    }
}
