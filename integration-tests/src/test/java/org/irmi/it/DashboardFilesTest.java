package org.irmi.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.irmi.orb.isolation.OrbIsolation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The files for Prometheus users in {@code docs/monitoring/}, checked against what a real I-RMI
 * server serves on {@code irmi.metrics.port}: every metric the Grafana dashboard and the alerting
 * rules query must be one the server exposes, and every label they select or group by must be one
 * that metric carries. A meter renamed in the code fails this test until the files follow.
 */
class DashboardFilesTest {
    private static final Path DOCS = Path.of("..", "docs", "monitoring");
    private static final Pattern METRIC = Pattern.compile("\\b(irmi_[a-z0-9_]+)\\b(\\{([^}]*)\\})?");
    private static final Pattern LABEL = Pattern.compile("([a-z_]+)\\s*(=~|!=|!~|=)");
    private static final Pattern GROUPING = Pattern.compile("\\b(?:by|without)\\s*\\(([^)]*)\\)");
    /** Labels Prometheus adds at scrape time, not the exporter. */
    private static final Set<String> SCRAPE_LABELS = Set.of("instance", "job");
    /**
     * Meters the monitors' ticker binds, not the ORB's start: the transport's once the transport is
     * there, and the objectives' once they were first evaluated (once a second).
     */
    private static final Set<String> BOUND_BY_THE_TICKER = Set.of("irmi_transport_connections_open", "irmi_sla_violated");

    private static ORB server;
    private static ORB client;
    /** Sample names the server exposes, with the labels each carries. */
    private static final Map<String, Set<String>> exposed = new HashMap<>();

    @BeforeAll
    static void scrapeARealServer() throws Exception {
        server = Nodes.irmi(Nodes.sla("dashboard.yaml"));
        String ior = Nodes.export(server, new TradeImpl("backend"));
        client = Nodes.irmi();
        Trade trade = Nodes.lookup(client, ior);
        OrbIsolation iso = Nodes.isolation(server);
        for (int i = 0; i < 200; i++) {
            trade.quote("IBM"); // per-operation meters exist once the operation was called
        }
        iso.runtime().poison().orElseThrow().filter("buy", iso.runtime().nanoClock().getAsLong());
        try {
            trade.buy("IBM", 1); // a reject decision
        } catch (java.rmi.RemoteException expected) {
            // refused: filtered by hand above
        }
        String url = iso.metricsUrl().orElseThrow();
        exposed.putAll(await("the meters the ticker binds, in the scrape").atMost(Duration.ofSeconds(30))
                .until(() -> scrape(url), names -> names.keySet().containsAll(BOUND_BY_THE_TICKER)));
        assertThat(exposed).as("the scrape").containsKeys("irmi_sla_violated", "irmi_isolation_decisions_total");
    }

    /** Scrapes {@code url}: each sample name served, with the labels it carries. */
    private static Map<String, Set<String>> scrape(String url) throws Exception {
        Map<String, Set<String>> names = new HashMap<>();
        HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(scrape.statusCode()).isEqualTo(200);
        for (String line : scrape.body().split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.indexOf(' ');
            String name = line.substring(0, brace >= 0 && brace < space ? brace : space);
            Set<String> labels = names.computeIfAbsent(name, k -> new HashSet<>());
            if (brace >= 0 && brace < space) {
                Matcher m = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"").matcher(line.substring(brace, line.indexOf('}')));
                while (m.find()) {
                    labels.add(m.group(1));
                }
            }
        }
        return names;
    }

    @AfterAll
    static void stop() {
        Nodes.destroy(client, server);
    }

    /** Checks one PromQL expression's metrics and labels against the scrape; returns the metrics it names. */
    private static List<String> check(String where, String expr) {
        List<String> names = new ArrayList<>();
        Matcher m = METRIC.matcher(expr);
        while (m.find()) {
            String name = m.group(1);
            names.add(name);
            assertThat(exposed).as(where + ": metric " + name + " in `" + expr + "` is not served by an I-RMI ORB")
                    .containsKey(name);
            if (m.group(3) != null) {
                Matcher l = LABEL.matcher(m.group(3));
                while (l.find()) {
                    if (!SCRAPE_LABELS.contains(l.group(1))) {
                        assertThat(exposed.get(name)).as(where + ": label " + l.group(1) + " of " + name).contains(l.group(1));
                    }
                }
            }
        }
        Matcher g = GROUPING.matcher(expr);
        while (g.find()) {
            for (String label : g.group(1).split(",")) {
                String l = label.trim();
                if (l.isEmpty() || SCRAPE_LABELS.contains(l)) {
                    continue;
                }
                assertThat(names).as(where + ": grouping by " + l).anySatisfy(n -> assertThat(exposed.get(n)).contains(l));
            }
        }
        assertThat(names).as(where + ": `" + expr + "` names no irmi metric").isNotEmpty();
        return names;
    }

    @Test
    void shouldQueryOnlyMetricsAndLabelsThatExistWhenGrafanaLoadsTheDashboard() throws Exception {
        JsonNode dash = new ObjectMapper().readTree(Files.readString(DOCS.resolve("grafana-dashboard.json")));

        assertThat(dash.path("title").asText()).isEqualTo("I-RMI isolation points");
        assertThat(dash.path("uid").asText()).isNotEmpty();
        Set<String> queried = new HashSet<>();
        Set<Integer> ids = new HashSet<>();
        int queries = 0;
        for (JsonNode panel : dash.path("panels")) {
            assertThat(ids.add(panel.path("id").asInt())).as("panel ids are unique").isTrue();
            for (JsonNode target : panel.path("targets")) {
                queried.addAll(check("panel `" + panel.path("title").asText() + "`", target.path("expr").asText()));
                queries++;
            }
        }
        check("variable instance", dash.path("templating").path("list").path(1).path("definition").asText());
        assertThat(queries).isGreaterThanOrEqualTo(15);
        assertThat(queried).as("the dashboard shows each isolation point, the SLA and the resources").contains(
                "irmi_sla_violated", "irmi_latency_p99_seconds", "irmi_isolation_decisions_total",
                "irmi_isolation_poison_filtered_signatures", "irmi_isolation_slow_client_triggered_pairs",
                "irmi_isolation_crosstalk_active_streams", "irmi_resources_heap_pressure_ratio");
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldAlertOnSlaBreachesAndFiltersThatStayOnUsingMetricsThatExist() throws Exception {
        Object doc = new Load(LoadSettings.builder().build()).loadFromString(
                Files.readString(DOCS.resolve("prometheus-alerts.yml")));
        List<Map<String, Object>> groups = (List<Map<String, Object>>) ((Map<String, Object>) doc).get("groups");

        Set<String> guideAnchors = new HashSet<>();
        for (String line : Files.readAllLines(DOCS.resolve("..").resolve("user-guide.md"))) {
            if (line.startsWith("#")) { // GitHub's anchor: lower case, punctuation dropped, spaces to '-'
                guideAnchors.add(line.replaceFirst("^#+\\s*", "").toLowerCase().replaceAll("[^a-z0-9 _-]", "")
                        .replace(' ', '-'));
            }
        }
        Map<String, String> exprByAlert = new HashMap<>();
        for (Map<String, Object> group : groups) {
            assertThat(group).containsKeys("name", "rules");
            for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                String alert = (String) rule.get("alert");
                assertThat(rule).as(alert).containsKeys("alert", "expr", "for", "labels", "annotations");
                assertThat((Map<String, Object>) rule.get("labels")).as(alert).containsKey("severity");
                assertThat((Map<String, Object>) rule.get("annotations")).as(alert).containsKey("summary");
                assertThat((String) rule.get("for")).as(alert).matches("\\d+[smh]");
                assertThat(exprByAlert.put(alert, (String) rule.get("expr"))).as("alert names are unique").isNull();
                String runbook = (String) ((Map<String, Object>) rule.get("annotations")).get("runbook_url");
                assertThat(runbook).as(alert + ": runbook_url").isEqualTo("docs/user-guide.md#" + alert.toLowerCase());
                assertThat(guideAnchors).as(alert + ": a section `### " + alert + "` in docs/user-guide.md")
                        .contains(alert.toLowerCase());
                if (!alert.equals("IrmiTargetDown")) { // up{job} is Prometheus's own, not the ORB's
                    check("alert " + alert, (String) rule.get("expr"));
                }
            }
        }
        assertThat(exprByAlert.get("IrmiSlaObjectiveViolated")).contains("irmi_sla_violated");
        assertThat(exprByAlert.get("IrmiTargetDown")).isEqualTo("up{job=~\".*irmi.*\"} == 0");
        assertThat(exprByAlert.get("IrmiPoisonFilterStaysOn")).contains("irmi_isolation_poison_filtered_signatures");
        assertThat(exprByAlert.get("IrmiPoisonSuspectNamed")).contains("irmi_isolation_poison_named_suspects_total");
        // an episode that names no suspect is only watched: no rule alarms on it
        assertThat(exprByAlert.values()).as("no alert on a watched episode").noneMatch(e -> e.contains("watching")
                || e.contains("irmi_edges_") || e.contains("irmi_isolation_poison_episodes"));
    }

    @Test
    void shouldRepeatNoWordInAnyIrmiNameWhenPrometheusAppendsTheUnit() {
        List<String> stutters = new ArrayList<>();
        for (String name : exposed.keySet()) {
            if (!name.startsWith("irmi_")) {
                continue;
            }
            String base = name.replaceFirst("_(total|bucket|count|sum|max|created)$", "");
            Set<String> words = new HashSet<>();
            for (String word : base.split("_")) {
                // singular and plural are the same word: episode_active_episodes stutters
                if (!words.add(word.endsWith("s") ? word.substring(0, word.length() - 1) : word)) {
                    stutters.add(name);
                    break;
                }
            }
        }
        assertThat(exposed.keySet()).as("the scrape covers the transport, whose names stuttered")
                .contains("irmi_transport_connections_accepted_total", "irmi_transport_messages_read_total",
                        "irmi_transport_connections_open", "irmi_transport_requests_in_flight");
        assertThat(stutters).as("exported names that repeat a word (drop the base unit the name already says)").isEmpty();
    }
}
