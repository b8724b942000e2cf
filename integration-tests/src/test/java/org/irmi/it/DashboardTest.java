package org.irmi.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.irmi.isolation.MinorCodes;
import org.irmi.orb.isolation.Dashboard;
import org.irmi.orb.isolation.OrbIsolation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.INITIALIZE;
import org.omg.CORBA.ORB;
import org.omg.CORBA.TRANSIENT;

/**
 * The dashboard's JSON API and its answers to bad input, against a real I-RMI server started with
 * {@code irmi.sla} = {@code sla/dashboard.yaml} and {@code irmi.dashboard.port=0}, called by a real
 * I-RMI client over loopback.
 */
class DashboardTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private ORB server;
    private ORB client;

    @AfterEach
    void tearDown() {
        Nodes.destroy(client, server);
    }

    private String start() {
        server = Nodes.irmi(Nodes.sla("dashboard.yaml"), Dashboard.PORT_PROPERTY, "0");
        return Nodes.isolation(server).dashboardUrl().orElseThrow();
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode json(String url) throws Exception {
        HttpResponse<String> r = get(url);
        assertThat(r.statusCode()).as(url + ": " + r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        return JSON.readTree(r.body());
    }

    /** Polls {@code url} until its JSON satisfies {@code until}, for at most 10 s; returns the last. */
    private JsonNode awaitJson(String url, Predicate<JsonNode> until) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        JsonNode last = json(url);
        while (!until.test(last) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            last = json(url);
        }
        return last;
    }

    /** Sends raw bytes and returns the whole answer (the server closes after one). */
    private static String raw(int port, String request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            try {
                s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            } catch (java.io.IOException closedEarly) {
                // the server may answer and close before it has read all of it
            }
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void shouldBindTheLoopbackAddressWhenNoAddressIsSet() {
        String url = start();

        assertThat(url).matches("http://127\\.0\\.0\\.1:\\d+/");
    }

    @Test
    void shouldShowObjectivesAgainstMeasurementsAndEachConnectionsShareWhenCallsArrive() throws Exception {
        String url = start();
        String ior = Nodes.export(server, new TradeImpl("backend"));
        client = Nodes.irmi();
        Trade trade = Nodes.lookup(client, ior);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (System.nanoTime() < end) {
            trade.quote("IBM");
        }

        JsonNode state = awaitJson(url + "api/state", s -> s.path("sla").path("objectives").path(0).path("calls").asLong() > 0
                && s.path("crosstalk").path("connections").size() > 0);

        assertThat(state.path("service").asText()).isEqualTo("backend");
        assertThat(state.path("sla").path("file").asText()).isEqualTo("dashboard.yaml");
        assertThat(state.path("sla").path("appliedAtMillis").asLong()).isPositive();
        JsonNode quote = state.path("sla").path("objectives").path(0);
        assertThat(quote.path("objective").asText()).isEqualTo("quote");
        assertThat(quote.path("p99TargetNanos").asLong()).isEqualTo(50_000_000L);
        assertThat(quote.path("minThroughputPerSecond").asDouble()).isEqualTo(10.0);
        assertThat(quote.path("maxErrorPercent").asDouble()).isEqualTo(1.0);
        assertThat(quote.path("p99Nanos").asLong()).isPositive();
        assertThat(quote.path("throughputPerSecond").asDouble()).isPositive();
        assertThat(quote.path("errorPercent").asDouble()).isZero();
        JsonNode conn = state.path("crosstalk").path("connections").path(0);
        assertThat(conn.path("weight").asDouble()).as("loopback clients are weighted 2").isEqualTo(2.0);
        assertThat(conn.path("readBudgetBytes").asInt()).isPositive();
        assertThat(conn.path("bytesRead").asLong()).isPositive();
        assertThat(conn.has("receiveBufferBytes")).isTrue();
        assertThat(conn.has("sharePercent")).isTrue();
        JsonNode poison = state.path("poison");
        assertThat(poison.path("inEpisode").asBoolean()).isFalse();
        assertThat(poison.path("watching").asBoolean()).isFalse();
        assertThat(poison.path("state").asText()).isEqualTo("quiet");
        assertThat(poison.path("throughputCurrent").path("throughputPerSecond").asDouble()).isPositive();
        assertThat(poison.path("filters").isArray()).isTrue();
        JsonNode pair = state.path("slowClient").path("pairs").path(0);
        assertThat(pair.path("name").asText()).isNotEmpty();
        assertThat(pair.path("incoming").asText()).isEqualTo("publish");
        assertThat(pair.path("estimatedQueueLength").asDouble()).isZero();
        assertThat(pair.path("triggered").asBoolean()).isFalse();
        assertThat(state.path("resources").path("heapMaxBytes").asLong()).isPositive();
    }

    @Test
    void shouldShowAFilterItsRefusalAndTheEvidenceWhenAnOperatorFiltersASignature() throws Exception {
        String url = start();
        String ior = Nodes.export(server, new TradeImpl("backend"));
        client = Nodes.irmi();
        Trade trade = Nodes.lookup(client, ior);
        trade.quote("IBM");
        OrbIsolation iso = Nodes.isolation(server);
        iso.runtime().poison().orElseThrow().filter("buy", iso.runtime().nanoClock().getAsLong());

        Throwable refused = catchThrowable(() -> trade.buy("IBM", 1));

        assertThat(refused.getCause()).isInstanceOf(TRANSIENT.class);
        assertThat(((TRANSIENT) refused.getCause()).minor).isEqualTo(MinorCodes.POISON_FILTERED);
        JsonNode filter = json(url + "api/state").path("poison").path("filters").path(0);
        assertThat(filter.path("signature").asText()).isEqualTo("buy");
        assertThat(filter.path("phase").asText()).isEqualTo("filtered");
        assertThat(filter.path("timesFiltered").asInt()).isEqualTo(1);
        assertThat(filter.path("coolDownLeftNanos").asLong()).isPositive();
        JsonNode page = json(url + "api/decisions?after=0");
        assertThat(page.path("last").asLong()).isEqualTo(1);
        JsonNode event = page.path("events").path(0);
        assertThat(event.path("seq").asLong()).isEqualTo(1);
        assertThat(event.path("point").asText()).isEqualTo("poison_message");
        assertThat(event.path("action").asText()).isEqualTo("reject");
        assertThat(event.path("minor").asText()).isEqualTo("POISON_FILTERED");
        assertThat(event.path("stream").asText()).contains("buy");
        assertThat(event.path("evidence").path("timesFiltered").asInt()).isEqualTo(1);
        assertThat(json(url + "api/decisions?after=1").path("events").size()).as("nothing after the last seen").isZero();
        assertThat(json(url + "api/state").path("decisionCounts").path("poison_message").path("reject").asLong())
                .isEqualTo(1);
    }

    @Test
    void shouldServeThePageAndTheChartLibraryFromTheJarWhenABrowserLoadsIt() throws Exception {
        String url = start();

        HttpResponse<String> page = get(url);
        HttpResponse<String> uplot = get(url + "uplot/uPlot.iife.min.js");
        HttpResponse<String> script = get(url + "dashboard.js");

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(page.body()).contains("<script src=\"uplot/uPlot.iife.min.js\">").doesNotContain("https://");
        assertThat(uplot.statusCode()).isEqualTo(200);
        assertThat(uplot.body()).contains("uPlot").hasSizeGreaterThan(10_000);
        assertThat(script.statusCode()).isEqualTo(200);
        assertThat(script.body()).contains("api/state", "api/decisions").doesNotContain("innerHTML");
    }

    @Test
    void shouldAnswer404NamingThePathsThatExistWhenThePathIsUnknown() throws Exception {
        String url = start();

        HttpResponse<String> r = get(url + "api/nothing");

        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.body()).contains("not found: /api/nothing", "/api/state", "/api/decisions");
    }

    @Test
    void shouldAnswer405WithAllowWhenTheMethodIsNotGet() throws Exception {
        String url = start();

        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url + "api/state"))
                .DELETE().timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(r.statusCode()).isEqualTo(405);
        assertThat(r.headers().firstValue("Allow")).hasValue("GET, HEAD");
    }

    @Test
    void shouldAnswer413WhenARequestCarriesABody() throws Exception {
        start();
        int port = Nodes.isolation(server).dashboardUrl().map(u -> URI.create(u).getPort()).orElseThrow();

        String reply = raw(port, "POST /api/state HTTP/1.1\r\nHost: x\r\nContent-Length: 1048576\r\n\r\n"
                + "x".repeat(4096));

        assertThat(reply).startsWith("HTTP/1.1 413").contains("request body over 0 bytes");
    }

    @Test
    void shouldAnswer431WhenTheHeadersExceedTheLimit() throws Exception {
        start();
        int port = Nodes.isolation(server).dashboardUrl().map(u -> URI.create(u).getPort()).orElseThrow();

        String reply = raw(port, "GET /api/state HTTP/1.1\r\nHost: x\r\nX-Pad: " + "a".repeat(16 * 1024) + "\r\n\r\n");

        assertThat(reply).startsWith("HTTP/1.1 431");
    }

    @Test
    void shouldAnswer400NamingTheParameterWhenAQueryNumberIsBad() throws Exception {
        String url = start();

        HttpResponse<String> notANumber = get(url + "api/decisions?after=abc");
        HttpResponse<String> tooMany = get(url + "api/decisions?limit=100000");

        assertThat(notANumber.statusCode()).isEqualTo(400);
        assertThat(notANumber.body()).contains("after must be a whole number, was \"abc\"");
        assertThat(tooMany.statusCode()).isEqualTo(400);
        assertThat(tooMany.body()).contains("limit must be 1..256, was 100000");
    }

    @Test
    void shouldRefuseToStartNamingThePropertyWhenThePortIsNotANumber() {
        Throwable t = catchThrowable(() -> Nodes.irmi(Nodes.sla("dashboard.yaml"), Dashboard.PORT_PROPERTY, "web"));

        assertThat(t).isInstanceOf(INITIALIZE.class).hasMessageContaining("irmi.dashboard.port must be a port number");
    }

    /**
     * Clients that open connections to the dashboard and never finish their requests hold every
     * dashboard worker and queue slot; the ORB's calls must go on at their pace (the dashboard has
     * threads of its own and never runs on the selector thread), and the dashboard must serve again
     * once the stalled clients are cut off at the request deadline.
     */
    @Test
    void shouldKeepServingOrbCallsWhileDashboardClientsStallAndServeAgainAfterTheDeadline() throws Exception {
        String url = start();
        int port = URI.create(url).getPort();
        String ior = Nodes.export(server, new TradeImpl("backend"));
        client = Nodes.irmi();
        Trade trade = Nodes.lookup(client, ior);
        for (int i = 0; i < 200; i++) {
            trade.quote("IBM"); // warm-up
        }
        List<Socket> stalled = new ArrayList<>();
        try {
            for (int i = 0; i < 12; i++) {
                Socket s = new Socket("127.0.0.1", port);
                OutputStream out = s.getOutputStream();
                out.write("GET /api/state HTTP/1.1\r\n".getBytes(StandardCharsets.ISO_8859_1)); // and no blank line
                out.flush();
                stalled.add(s);
            }
            long start = System.nanoTime();
            for (int i = 0; i < 500; i++) {
                trade.quote("IBM");
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

            assertThat(millis).as("500 calls beside 12 stalled dashboard clients").isLessThan(4_000);
            assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                    .anyMatch(n -> n.startsWith("irmi-dashboard-"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            int status = 0;
            while (status != 200 && System.nanoTime() < deadline) {
                try {
                    status = get(url + "api/state").statusCode();
                } catch (java.io.IOException closedWhileBusy) {
                    Thread.sleep(200);
                }
            }
            assertThat(status).as("the dashboard serves again after the stalled clients' deadline").isEqualTo(200);
            for (Socket s : stalled) {
                s.setSoTimeout(10_000);
                InputStream in = s.getInputStream();
                int read;
                try {
                    read = in.read();
                } catch (java.io.IOException reset) {
                    read = -1;
                }
                assertThat(read).as("a stalled client is closed without an answer").isEqualTo(-1);
            }
        } finally {
            for (Socket s : stalled) {
                s.close();
            }
        }
    }
}
