package org.irmi.bench.daytrader;

import java.io.IOException;
import java.io.InputStream;
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
import java.util.concurrent.TimeUnit;
import org.irmi.bench.daytrader.internal.BackendMain;
import org.irmi.bench.daytrader.internal.OperatorCredential;
import org.irmi.bench.daytrader.internal.WebTierMain;

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
 * {@link Builder#operatorTokenFile} names another) and sends it as {@code Authorization: Bearer}
 * with every request of {@link #get} and {@link #post}, which the operator's pages (poison,
 * scenario, audit, the summary reset) need.
 *
 * <p>Children read their standard input to end of file and exit when it closes, so they die with
 * this JVM even when it is killed. {@link #close()} stops them (web tier first), forcibly after 10 s.
 */
public final class DayTraderDeployment implements AutoCloseable {
    private final Process backend;
    private final Process web;
    private final int webPort;
    private final String backendIor;
    /** Set once, by the builder, before the deployment is handed out. */
    private String backendDashboardUrl;
    private final Path workDir;
    private final OrbChoice orb;
    private final OperatorCredential operator;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private DayTraderDeployment(Process backend, Process web, int webPort, String backendIor, Path workDir, OrbChoice orb,
                                OperatorCredential operator) {
        this.operator = operator;
        this.backend = backend;
        this.web = web;
        this.webPort = webPort;
        this.backendIor = backendIor;
        this.workDir = workDir;
        this.orb = orb;
    }

    public static Builder builder() {
        return new Builder();
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
     * and {@code irmi.dashboard.port} (see {@link Builder#backendJvmArgs}).
     */
    public java.util.Optional<String> backendDashboardUrl() {
        return java.util.Optional.ofNullable(backendDashboardUrl);
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
        return backend.isAlive() && web.isAlive();
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
        stop(web);
        stop(backend);
        if (operator.created()) {
            try {
                Files.deleteIfExists(operator.file());
            } catch (IOException e) {
                System.err.println("daytrader: could not delete the operator token file " + operator.file() + ": " + e);
            }
        }
    }

    private static void stop(Process p) {
        if (!p.isAlive()) {
            return;
        }
        p.destroy();
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Options of a deployment; every one has a default. */
    public static final class Builder {
        private OrbChoice orb = OrbChoice.IRMI;
        private OrbChoice webOrb;
        private String db = "h2";
        private String schema;
        private int users = 15_000;
        private int quotes = 10_000;
        private int backendThreads = 32;
        private int webPort;
        private int httpThreads = 200;
        private final List<String> backendJvmArgs = new ArrayList<>(List.of("-Xmx1g"));
        private final List<String> webJvmArgs = new ArrayList<>(List.of("-Xmx512m"));
        private Path workDir;
        private String classPath = System.getProperty("java.class.path");
        private boolean inheritOutput;
        private Duration startTimeout = Duration.ofMinutes(3);
        private String backendCpus;
        private CpuQuota backendQuota;
        private String webCpus;
        private Path operatorTokenFile;

        /** The ORB of both tiers (default I-RMI). */
        public Builder orb(OrbChoice orb) {
            this.orb = orb;
            return this;
        }

        /** A different ORB for the web tier's client side (default: the same as {@link #orb}). */
        public Builder webOrb(OrbChoice webOrb) {
            this.webOrb = webOrb;
            return this;
        }

        /** {@code h2} (embedded, the default) or a JDBC URL such as {@code jdbc:postgresql://127.0.0.1:5432/test}. */
        public Builder db(String db) {
            this.db = db;
            return this;
        }

        /** A schema to create the tables in (keeps a shared PostgreSQL's other tables apart). */
        public Builder schema(String schema) {
            this.schema = schema;
            return this;
        }

        public Builder users(int users) {
            this.users = users;
            return this;
        }

        public Builder quotes(int quotes) {
            this.quotes = quotes;
            return this;
        }

        /** Backend ORB dispatch threads (min = max) and database connections. */
        public Builder backendThreads(int threads) {
            this.backendThreads = threads;
            return this;
        }

        /** The web tier's port (0, the default, picks a free one). */
        public Builder webPort(int port) {
            this.webPort = port;
            return this;
        }

        public Builder httpThreads(int threads) {
            this.httpThreads = threads;
            return this;
        }

        /** Extra JVM options of the backend (e.g. {@code -Dirmi.sla=...}); replaces the default {@code -Xmx1g} if one is given. */
        public Builder backendJvmArgs(List<String> args) {
            replaceJvmArgs(backendJvmArgs, args);
            return this;
        }

        public Builder webJvmArgs(List<String> args) {
            replaceJvmArgs(webJvmArgs, args);
            return this;
        }

        private static void replaceJvmArgs(List<String> target, List<String> args) {
            if (args.stream().anyMatch(a -> a.startsWith("-Xmx"))) {
                target.removeIf(a -> a.startsWith("-Xmx"));
            }
            target.addAll(args);
        }

        /** Where logs and ready files go (default: a new temporary directory). */
        public Builder workDir(Path dir) {
            this.workDir = dir;
            return this;
        }

        /** The children's class path (default: this JVM's). JacORB's jars must precede GlassFish's. */
        public Builder classPath(String classPath) {
            this.classPath = classPath;
            return this;
        }

        /** Children print to this JVM's console instead of log files. */
        public Builder inheritOutput(boolean inherit) {
            this.inheritOutput = inherit;
            return this;
        }

        /**
         * Pins the backend JVM to these CPUs ({@code taskset -c}, e.g. {@code "1"}), so it has its own
         * CPU share as the paper's backend had its own machine; null (the default) does not pin.
         */
        public Builder backendCpus(String cpus) {
            this.backendCpus = cpus;
            return this;
        }

        /**
         * Limits the backend JVM to a CPU share ({@link CpuQuota}) on top of its pinning, as the
         * paper's backend ran on a slower machine of its own; null (the default) does not limit.
         */
        public Builder backendQuota(CpuQuota quota) {
            this.backendQuota = quota;
            return this;
        }

        /** Pins the web tier JVM to these CPUs ({@code taskset -c}); null (the default) does not pin. */
        public Builder webCpus(String cpus) {
            this.webCpus = cpus;
            return this;
        }

        /**
         * The operator's token file (default: {@code operator.token} in the work directory); read when
         * it exists (mode 0600 required), else made.
         */
        public Builder operatorTokenFile(Path file) {
            this.operatorTokenFile = file;
            return this;
        }

        public Builder startTimeout(Duration timeout) {
            this.startTimeout = timeout;
            return this;
        }

        /** Starts the backend, waits for it, starts the web tier, waits for it. */
        public DayTraderDeployment start() throws IOException, InterruptedException {
            if (!orb.isAvailable() || (webOrb != null && !webOrb.isAvailable())) {
                RmiIiop.installSystemProperties(orb.isAvailable() ? webOrb : orb); // throws with the explanation
            }
            Path dir = workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("daytrader-");
            Path backendReady = dir.resolve("backend.ready");
            Path webReady = dir.resolve("web.ready");
            Files.deleteIfExists(backendReady);
            Files.deleteIfExists(webReady);
            List<String> b = new ArrayList<>(List.of("--orb", orb.flag(), "--db", db, "--users", Integer.toString(users),
                    "--quotes", Integer.toString(quotes), "--threads", Integer.toString(backendThreads),
                    "--ready-file", backendReady.toString(), "--timeseries-csv", dir.resolve("backend-timeseries.csv").toString(),
                    "--watch-stdin"));
            if (schema != null) {
                b.addAll(List.of("--schema", schema));
            }
            Process backend = launch(backendCpus, backendQuota, backendJvmArgs, BackendMain.class.getName(), b, dir.resolve("backend.log"));
            Properties backendProps;
            try {
                backendProps = awaitReady(backend, backendReady, dir.resolve("backend.log"), "backend");
            } catch (IOException | InterruptedException | RuntimeException e) {
                stop(backend);
                throw e;
            }
            OperatorCredential operator;
            try {
                operator = OperatorCredential.loadOrCreate(operatorTokenFile != null ? operatorTokenFile
                        : dir.resolve("operator.token"));
            } catch (IOException e) {
                stop(backend);
                throw e;
            }
            OrbChoice clientOrb = webOrb == null ? orb : webOrb;
            Process web = launch(webCpus, null, webJvmArgs, WebTierMain.class.getName(), List.of("--orb", clientOrb.flag(), "--backend-ready",
                    backendReady.toString(), "--port", Integer.toString(webPort), "--http-threads", Integer.toString(httpThreads),
                    "--ready-file", webReady.toString(), "--operator-token-file", operator.file().toString(), "--watch-stdin"),
                    dir.resolve("web.log"));
            Properties webProps;
            try {
                webProps = awaitReady(web, webReady, dir.resolve("web.log"), "web tier");
            } catch (IOException | InterruptedException | RuntimeException e) {
                stop(web);
                stop(backend);
                throw e;
            }
            DayTraderDeployment deployment = new DayTraderDeployment(backend, web, Integer.parseInt(webProps.getProperty("port")),
                    backendProps.getProperty("ior"), dir, orb, operator);
            deployment.backendDashboardUrl = backendProps.getProperty("dashboard");
            return deployment;
        }

        private Process launch(String cpus, CpuQuota quota, List<String> jvmArgs, String mainClass, List<String> args,
                               Path log) throws IOException {
            List<String> cmd = new ArrayList<>();
            if (cpus != null) {
                cmd.addAll(List.of("taskset", "-c", cpus));
            }
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.addAll(jvmArgs);
            cmd.addAll(List.of("-cp", absolute(classPath), mainClass));
            cmd.addAll(args);
            ProcessBuilder pb = new ProcessBuilder(quota == null ? cmd : quota.wrap(cmd));
            if (inheritOutput) {
                pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.INHERIT);
            } else {
                pb.redirectErrorStream(true).redirectOutput(log.toFile());
            }
            // stdin stays a pipe held by this JVM: the children exit when it closes (--watch-stdin).
            return pb.start();
        }

        /** The class path with every entry made absolute, so children started elsewhere still find it. */
        private static String absolute(String classPath) {
            StringBuilder sb = new StringBuilder();
            for (String entry : classPath.split(java.io.File.pathSeparator)) {
                if (!entry.isEmpty()) {
                    sb.append(sb.length() == 0 ? "" : java.io.File.pathSeparator).append(Path.of(entry).toAbsolutePath());
                }
            }
            return sb.toString();
        }

        private Properties awaitReady(Process p, Path ready, Path log, String what) throws IOException, InterruptedException {
            long deadline = System.nanoTime() + startTimeout.toNanos();
            while (!Files.exists(ready)) {
                if (!p.isAlive()) {
                    throw new IOException("the DayTrader " + what + " exited with status " + p.exitValue() + " before it was ready; "
                            + "its log (" + log + "):\n" + tail(log));
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("the DayTrader " + what + " was not ready within " + startTimeout.toSeconds()
                            + " s; its log (" + log + "):\n" + tail(log));
                }
                Thread.sleep(100); // polling a file the child writes atomically; bounded by the deadline above
            }
            Properties props = new Properties();
            try (InputStream in = Files.newInputStream(ready)) {
                props.load(in);
            }
            return props;
        }

        private String tail(Path log) {
            try {
                List<String> lines = Files.readAllLines(log);
                return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
            } catch (IOException e) {
                return "(no log: " + e.getMessage() + ")";
            }
        }
    }
}
