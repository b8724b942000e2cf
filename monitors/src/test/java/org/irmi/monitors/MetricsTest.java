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
    /** Meters whose name says their unit, so they have no base unit for Prometheus to append again. */
    private static final java.util.Set<String> UNIT_IN_NAME = java.util.Set.of("irmi.edges.rising",
            "irmi.edges.falling", "irmi.edges.episode.active", "irmi.cost.streams.tracked", "irmi.cost.requests.rate",
            "irmi.remote.reports.malformed", "irmi.resources.threads.live", "irmi.resources.load.system");

    @Test
    void shouldRepeatNoWordInAnExportedNameWhenPrometheusAppendsTheUnit() {
        io.micrometer.prometheusmetrics.PrometheusMeterRegistry prometheus =
                new io.micrometer.prometheusmetrics.PrometheusMeterRegistry(io.micrometer.prometheusmetrics.PrometheusConfig.DEFAULT);
        bindAll(prometheus);

        java.util.Set<String> names = new java.util.TreeSet<>();
        prometheus.scrape().lines().filter(l -> l.startsWith("irmi_"))
                .forEach(l -> names.add(l.split("[{ ]", 2)[0]));
        java.util.List<String> stutters = names.stream().filter(n -> {
            String base = n.replaceFirst("_(total|bucket|count|sum|max|created)$", "");
            java.util.Set<String> words = new java.util.HashSet<>();
            for (String w : base.split("_")) {
                if (!words.add(w.endsWith("s") ? w.substring(0, w.length() - 1) : w)) { // episode = episodes
                    return true;
                }
            }
            return false;
        }).toList();

        assertThat(names).contains("irmi_edges_rising_total", "irmi_edges_episode_active", "irmi_cost_streams_tracked",
                "irmi_remote_reports_malformed_total", "irmi_resources_threads_live", "irmi_cost_requests_rate");
        assertThat(stutters).as("names that repeat a word").isEmpty();
    }

    @Test
    void shouldNameDescribeAndUnitEveryMeterWhenAllMonitorsAreBound() {
        bindAll();
        assertThat(registry.getMeters()).hasSizeGreaterThan(30);
        for (Meter m : registry.getMeters()) {
            Meter.Id id = m.getId();
            assertThat(id.getName()).as("name").startsWith("irmi.");
            assertThat(id.getDescription()).as("description of %s", id.getName()).isNotBlank();
            if (!UNIT_IN_NAME.contains(id.getName())) {
                assertThat(id.getBaseUnit()).as("unit of %s", id.getName()).isNotBlank();
            }
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
    void shouldServeAPercentileHistogramPerOperationWithBoundedBucketsWhenScraped() throws Exception {
        OperationLatencyMonitor latency = OperationLatencyMonitor.of(window, clock);
        latency.record("buy", 4_000_000); // an operation seen before the registry is bound
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(0)) {
            latency.metrics().bindTo(endpoint.registry());
            latency.record("buy", 4_000_000);
            latency.record("quote", 2_000_000);
            latency.record("quote", 20_000_000);
            String body = new String(new java.net.URL(endpoint.url()).openStream().readAllBytes(),
                    java.nio.charset.StandardCharsets.UTF_8);

            java.util.List<String> quote = body.lines()
                    .filter(l -> l.startsWith("irmi_latency_seconds_bucket{") && l.contains("operation=\"quote\"")).toList();
            assertThat(quote).as("bounded buckets, each with its le").hasSizeBetween(10, 80)
                    .allMatch(l -> l.matches("irmi_latency_seconds_bucket\\{[^}]*\\ble=\"[^\"]+\"[^}]*} \\d+(\\.0)?"));
            assertThat(quote).anyMatch(l -> l.matches(".*le=\"\\+Inf\".*} 2(\\.0)?"))
                    .anyMatch(l -> l.matches(".*} 1(\\.0)?")); // 2 ms is in a bucket that 20 ms is not
            assertThat(body).contains("irmi_latency_seconds_count{operation=\"quote\"} 2",
                            "irmi_latency_seconds_count{operation=\"buy\"} 1")
                    .as("no histogram for the total, so sum by (le) counts each request once")
                    .doesNotContainPattern("irmi_latency_seconds_(count|bucket)\\{[^}]*operation=\"\\(all\\)\"");
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
        bindAll(registry);
    }

    private void bindAll(MeterRegistry registry) {
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
