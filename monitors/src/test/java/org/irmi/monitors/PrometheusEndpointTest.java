package org.irmi.monitors;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.irmi.sla.WindowConfig;

class PrometheusEndpointTest {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void shouldServeTheMonitorsOverHttpWhenScraped() throws Exception {
        ManualClock clock = new ManualClock();
        CausalPairMonitor pairs = CausalPairMonitor.of(Map.of("events", 1.0),
                WindowConfig.of(Duration.ofSeconds(10), 10), clock);
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(0)) {
            pairs.metrics().bindTo(endpoint.registry());
            for (int i = 0; i < 20; i++) {
                pairs.recordIncoming("events");
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

    @Test
    void shouldKeepScrapingWhileAClientTricklesItsRequestAndCutThatClientOffAtTheDeadline() throws Exception {
        ManualClock clock = new ManualClock();
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), 0,
                clock);
             Socket slow = new Socket("127.0.0.1", endpoint.port())) {
            // Half the deadline in real time: a read on the endpoint's side gives up only after the
            // whole deadline without a byte, so only the deadline on its clock can close this in time.
            slow.setSoTimeout(PrometheusEndpoint.REQUEST_DEADLINE_MILLIS / 2);
            OutputStream out = slow.getOutputStream();
            out.write('G'); // and nothing more for now: a slowloris holding a worker
            out.flush();

            HttpResponse<String> scrape = get(endpoint.url());

            assertThat(scrape.statusCode()).as("a scrape beside the slow client").isEqualTo(200);
            String outcome;
            try {
                for (int second = 1; second <= 10; second++) {
                    clock.advanceMillis(1_000);
                    out.write('E'); // one byte a second: each read is within any per-read timeout
                    out.flush();
                }
                outcome = slow.getInputStream().read() < 0 ? "closed" : "answered";
            } catch (SocketTimeoutException open) {
                outcome = "still open";
            } catch (IOException closed) {
                outcome = "closed";
            }
            assertThat(outcome).as("the slow client's connection, 10 s on the endpoint's clock after its first byte"
                    + " (deadline %d ms)", PrometheusEndpoint.REQUEST_DEADLINE_MILLIS).isEqualTo("closed");
        }
    }

    @Test
    void shouldAnswer431WhenTheHeadersExceedTheLimit() throws Exception {
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(0);
             java.net.Socket s = new java.net.Socket("127.0.0.1", endpoint.port())) {
            s.setSoTimeout(10_000);
            String request = "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Pad: " + "a".repeat(PrometheusEndpoint.MAX_REQUEST_BYTES)
                    + "\r\n\r\n";
            try {
                s.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            } catch (java.io.IOException closedEarly) {
                // the endpoint may close before it has read all of it
            }
            String reply = new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
            assertThat(reply).startsWith("HTTP/1.1 431");
        }
    }
}
