package org.irmi.monitors;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

class PrometheusEndpointTest {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void shouldServeTheMonitorsOverHttpWhenScraped() throws Exception {
        ManualClock clock = new ManualClock();
        CausalPairMonitor pairs = CausalPairMonitor.of(List.of(CausalPair.of("events", "submit", "forward")),
                WindowConfig.of(Duration.ofSeconds(10), 10), clock);
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(0)) {
            pairs.metrics().bindTo(endpoint.registry());
            for (int i = 0; i < 20; i++) {
                pairs.recordIncoming("submit");
            }
            clock.advanceMillis(2_000);
            assertThat(endpoint.url()).startsWith("http://127.0.0.1:");
            HttpResponse<String> response = get(endpoint.url());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/plain"));
            assertThat(response.body())
                    .contains("# HELP irmi_pairs_incoming_rate")
                    .contains("irmi_pairs_incoming_rate_calls_s{pair=\"events\"} 10.0");
        }
    }

    @Test
    void shouldAnswerNotFoundWhenPathIsWrong() throws Exception {
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(0)) {
            HttpResponse<String> response = get("http://127.0.0.1:" + endpoint.port() + "/other");
            assertThat(response.statusCode()).isEqualTo(404);
        }
    }
}
