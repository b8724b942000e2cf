package org.irmi.monitors;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.irmi.sla.WindowConfig;

class MetricsTest {

    private final ManualClock clock = new ManualClock();
    private final WindowConfig window = WindowConfig.of(Duration.ofSeconds(10), 10);
    private final MeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void shouldNameDescribeAndUnitEveryMeterWhenAllMonitorsAreBound() {
        bindAll();
        assertThat(registry.getMeters()).hasSizeGreaterThan(30);
        for (Meter m : registry.getMeters()) {
            Meter.Id id = m.getId();
            assertThat(id.getName()).as("name").startsWith("irmi.");
            assertThat(id.getDescription()).as("description of %s", id.getName()).isNotBlank();
            assertThat(id.getBaseUnit()).as("unit of %s", id.getName()).isNotBlank();
            assertThat(id.getTags()).as("tags of %s", id.getName()).hasSizeLessThanOrEqualTo(1);
            for (var tag : id.getTags()) {
                assertThat(tag.getKey()).isIn("pair", "queue", "operation", "detector");
            }
        }
    }

    @Test
    void shouldReadMonitorStateWhenGaugesAreRead() {
        CausalPairMonitor pairs = CausalPairMonitor.of(Map.of("events", 1.0), window, clock);
        pairs.metrics().bindTo(registry);
        for (int i = 0; i < 30; i++) {
            pairs.recordIncoming("events");
        }
        clock.advanceMillis(3_000);
        assertThat(registry.get("irmi.pairs.incoming.rate").tag("pair", "events").gauge().value()).isEqualTo(10.0);
        assertThat(registry.get("irmi.pairs.queue.estimated").tag("pair", "events").gauge().value()).isEqualTo(30.0);
    }

    @Test
    void shouldRegisterGaugesOfANewOperationOnceWhenFirstSeen() {
        RequestCostMonitor cost = RequestCostMonitor.of(window, clock, 8, 8);
        cost.metrics().bindTo(registry);
        cost.record("o", "buy", "c", 2_000_000, 4_096);
        cost.record("o", "buy", "c", 4_000_000, 4_096);
        clock.advanceMillis(1_000);
        assertThat(registry.get("irmi.cost.cpu.mean").tag("operation", "buy").gauge().value()).isCloseTo(0.003, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(registry.get("irmi.cost.allocation.rate").tags("operation", "buy").gauge().value()).isEqualTo(8_192.0);
        assertThat(registry.find("irmi.cost.cpu.mean").gauges()).hasSize(3); // total, "*", "buy"
    }

    @Test
    void shouldGiveEveryMeterOfANameTheSameTagKeysSoPrometheusKeepsThemAll() {
        bindAll();
        java.util.Map<String, java.util.Set<java.util.Set<String>>> keysByName = new java.util.HashMap<>();
        for (Meter m : registry.getMeters()) {
            java.util.Set<String> keys = new java.util.TreeSet<>();
            m.getId().getTags().forEach(t -> keys.add(t.getKey()));
            keysByName.computeIfAbsent(m.getId().getName(), k -> new java.util.HashSet<>()).add(keys);
        }
        assertThat(keysByName).allSatisfy((name, keySets) -> assertThat(keySets).as(name).hasSize(1));
    }

    @Test
    void shouldServeTotalAndPerOperationLatencyThroughPrometheus() throws Exception {
        OperationLatencyMonitor latency = OperationLatencyMonitor.of(window, clock);
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(0)) {
            latency.metrics().bindTo(endpoint.registry());
            latency.record("quote", 2_000_000);
            latency.record("buy", 4_000_000);
            String body = new String(new java.net.URL(endpoint.url()).openStream().readAllBytes(),
                    java.nio.charset.StandardCharsets.UTF_8);
            assertThat(body).contains("irmi_latency_count_requests{operation=\"(all)\"} 2.0",
                    "irmi_latency_count_requests{operation=\"quote\"} 1.0",
                    "irmi_latency_count_requests{operation=\"buy\"} 1.0");
        }
    }

    @Test
    void shouldCountEdgesWhenTheDetectorFires() {
        EdgeDetector d = EdgeDetector.of(EdgeDetectorConfig.custom().baselineSamples(3).minBaselineSamples(3).build());
        d.metrics("poison").bindTo(registry);
        for (int i = 0; i < 3; i++) {
            d.onSample(new EdgeSample(i, 100, 1, 0.02, 1e7));
        }
        d.onSample(new EdgeSample(3, 10, 5, 0.02, 1e7));
        assertThat(registry.get("irmi.edges.rising").tag("detector", "poison").functionCounter().count()).isEqualTo(1.0);
        assertThat(registry.get("irmi.edges.episode.active").gauge().value()).isEqualTo(1.0);
    }

    private void bindAll() {
        CausalPairMonitor pairs = CausalPairMonitor.of(Map.of("events", 1.0), window, clock);
        pairs.registerQueueGauge("events", () -> 4);
        pairs.metrics().bindTo(registry);
        LocalResourceMonitor local = LocalResourceMonitor.of(window, clock, new LocalResourceMonitorTest.FakeProbe());
        local.registerHandOffQueue("dispatch", () -> 2);
        local.metrics().bindTo(registry);
        RequestCostMonitor cost = RequestCostMonitor.of(window, clock, 8, 8);
        cost.record("o", "buy", "c", 1, 1);
        cost.metrics().bindTo(registry);
        RemoteLoadStore remote = RemoteLoadStore.of(window, clock);
        remote.onReport("h", new LoadReport(1, 2, 3, 4, 5, false, false));
        remote.metrics().bindTo(registry);
        EdgeDetector.of(EdgeDetectorConfig.ofDefaults()).metrics("poison").bindTo(registry);
        OperationLatencyMonitor latency = OperationLatencyMonitor.of(window, clock);
        latency.record("buy", 1_000);
        latency.metrics().bindTo(registry);
        registry.getMeters().forEach(m -> m.measure().forEach(ms -> assertThat(ms.getValue()).as(m.getId().getName()).isNotNaN()));
    }
}
