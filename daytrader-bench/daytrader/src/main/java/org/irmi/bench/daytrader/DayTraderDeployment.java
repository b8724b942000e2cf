package org.irmi.bench.daytrader;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.irmi.bench.daytrader.internal.OperatorCredential;

/**
 * A running DayTrader: the backend JVM (database, {@link TradeServices} over RMI-IIOP) and the web
 * tier JVM (Jetty), started as child processes of this JVM. The experiments, the benchmark, the
 * tests and {@code ./irmi daytrader} all start DayTrader through this class.
 *
 * <pre>
 * try (DayTraderDeployment dt = DayTraderDeployment.builder().orb(OrbChoice.JACORB).users(500).quotes(200).start()) {
 *     httperf against 127.0.0.1:dt.webPort() ...;
 *     AuditReport r = dt.audit();
 * }
 * </pre>
 *
 * <p>The deployment is the web tier's operator: it makes the operator's token
 * ({@link #operatorTokenFile()}, mode 0600, in the work directory unless
 * {@link DayTraderDeploymentBuilder#operatorTokenFile} names another) and sends it as
 * {@code Authorization: Bearer} with every request of {@link #get} and {@link #post}, which the
 * operator's pages (poison, scenario, audit, the summary reset) need.
 *
 * <p>Children read their standard input to end of file and exit when it closes, so they die with
 * this JVM even when it is killed. {@link #close()} stops them (web tier first), forcibly after 10 s.
 */
public final class DayTraderDeployment implements AutoCloseable {
    private final ChildJvm backend;
    private final ChildJvm web;
    private final int webPort;
    private final String backendIor;
    private final String backendDashboardUrl;
    private final String backendMetricsUrl;
    private final Path workDir;
    private final OrbChoice orb;
    private final OperatorCredential operator;
    /** How long a tier has to exit after SIGTERM before it is killed. */
    static final long STOP_GRACE_MILLIS = 10_000;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** Made by {@link DayTraderDeploymentBuilder#start()} once both tiers are ready. */
    DayTraderDeployment(ChildJvm backend, ChildJvm web, int webPort, String backendIor, String backendDashboardUrl,
                        String backendMetricsUrl, Path workDir, OrbChoice orb, OperatorCredential operator) {
        this.operator = operator;
        this.backend = backend;
        this.web = web;
        this.webPort = webPort;
        this.backendIor = backendIor;
        this.backendDashboardUrl = backendDashboardUrl;
        this.backendMetricsUrl = backendMetricsUrl;
        this.workDir = workDir;
        this.orb = orb;
    }

    /** The options of a deployment, then {@link DayTraderDeploymentBuilder#start()}. */
    public static DayTraderDeploymentBuilder builder() {
        return new DayTraderDeploymentBuilder();
    }

    /** The web tier's HTTP port on 127.0.0.1. */
    public int webPort() {
        return webPort;
    }

    /** {@code http://127.0.0.1:PORT/daytrader/}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + webPort + "/daytrader/";
    }

    /**
     * The I-RMI backend's dashboard of its isolation points, when its JVM was given {@code irmi.sla}
     * and {@code irmi.dashboard.port} (see {@link DayTraderDeploymentBuilder#backendJvmArgs}).
     */
    public java.util.Optional<String> backendDashboardUrl() {
        return java.util.Optional.ofNullable(backendDashboardUrl);
    }

    /**
     * The I-RMI backend's Prometheus scrape URL ({@code http://127.0.0.1:PORT/metrics}), when its JVM
     * was given {@code irmi.sla} and {@code irmi.metrics.port}.
     */
    public java.util.Optional<String> backendMetricsUrl() {
        return java.util.Optional.ofNullable(backendMetricsUrl);
    }

    /** The backend's stringified IOR (a {@link TradeServices} reference). */
    public String backendIor() {
        return backendIor;
    }

    public OrbChoice orb() {
        return orb;
    }

    public long backendPid() {
        return backend.pid();
    }

    public long webPid() {
        return web.pid();
    }

    /** The directory holding {@code backend.log}, {@code web.log}, the ready files and the time-series CSV. */
    public Path workDir() {
        return workDir;
    }

    /** True while both tiers run. */
    public boolean isAlive() {
        return backend.alive() && web.alive();
    }

    /**
     * The operator's token (64 hex digits) that the web tier admits as {@code Authorization: Bearer};
     * give it to httperf with {@link HttperfWorkload.Builder#operatorToken}. Never print it: print
     * {@link #operatorTokenFile()}.
     */
    public String operatorToken() {
        return operator.hex();
    }

    /** The file holding the operator's token (mode 0600). */
    public Path operatorTokenFile() {
        return operator.file();
    }

    /** GETs {@code path} (relative to {@link #baseUrl()}) as the operator and returns status and body. */
    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(baseUrl() + path)).timeout(Duration.ofSeconds(120))
                .header("Authorization", "Bearer " + operator.hex()).build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * POSTs the form {@code form} ({@code name=value&...}, already URL-encoded) to {@code path} as the
     * operator (a Bearer request needs no CSRF token) and returns status and body; e.g.
     * {@code post("poison", "millis=4000")}.
     */
    public HttpResponse<String> post(String path, String form) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(baseUrl() + path)).timeout(Duration.ofSeconds(120))
                .header("Authorization", "Bearer " + operator.hex())
                .header("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Runs the {@link ConsistencyAudit} in the backend (through the web tier's {@code audit} page). */
    public AuditReport audit() throws IOException, InterruptedException {
        HttpResponse<String> r = get("audit");
        Properties p = new Properties();
        p.load(new java.io.StringReader(r.body()));
        if (p.getProperty("accounts") == null) {
            throw new IOException("audit page returned " + r.statusCode() + ": " + r.body());
        }
        List<String> examples = new ArrayList<>();
        for (int i = 0; p.getProperty("example." + i) != null; i++) {
            examples.add(p.getProperty("example." + i));
        }
        return new AuditReport(n(p, "accounts"), n(p, "orders"), n(p, "holdings"), n(p, "badBalances"), n(p, "badHoldings"),
                n(p, "stuckOrders"), n(p, "duplicateIds"), examples);
    }

    private static long n(Properties p, String key) {
        return Long.parseLong(p.getProperty(key).trim());
    }

    /** The time series of {@code tier} ("web" or "backend") since {@code sinceEpochSecond}, as CSV ({@link TimeSeriesCsv}). */
    public String timeSeriesCsv(String tier, long sinceEpochSecond) throws IOException, InterruptedException {
        return get("timeseries.csv?tier=" + tier + "&since=" + sinceEpochSecond).body();
    }

    /**
     * Stops both tiers, and deletes the operator's token file when this deployment made it (a token
     * file it was given stays): a credential is not left behind in a results directory.
     */
    @Override
    public void close() {
        web.stop(STOP_GRACE_MILLIS);
        backend.stop(STOP_GRACE_MILLIS);
        if (operator.created()) {
            try {
                Files.deleteIfExists(operator.file());
            } catch (IOException e) {
                System.err.println("daytrader: could not delete the operator token file " + operator.file() + ": " + e);
            }
        }
    }
}
