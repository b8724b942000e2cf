package org.irmi.bench.daytrader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.irmi.bench.daytrader.internal.BackendMain;
import org.irmi.bench.daytrader.internal.OperatorCredential;
import org.irmi.bench.daytrader.internal.WebTierMain;

/**
 * Options of a {@link DayTraderDeployment}, every one with a default, and {@link #start()}, which
 * brings the two tiers up: the backend JVM first, then (once it is ready) the operator's token, then
 * the web tier JVM. A tier that fails to come up is stopped, with any tier already started, before
 * the exception (naming the tier and quoting its log) is thrown. Get one from
 * {@link DayTraderDeployment#builder()}.
 */
public final class DayTraderDeploymentBuilder {
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

    DayTraderDeploymentBuilder() {
    }

    /** The ORB of both tiers (default I-RMI). */
    public DayTraderDeploymentBuilder orb(OrbChoice orb) {
        this.orb = orb;
        return this;
    }

    /** A different ORB for the web tier's client side (default: the same as {@link #orb}). */
    public DayTraderDeploymentBuilder webOrb(OrbChoice webOrb) {
        this.webOrb = webOrb;
        return this;
    }

    /** {@code h2} (embedded, the default) or a JDBC URL such as {@code jdbc:postgresql://127.0.0.1:5432/test}. */
    public DayTraderDeploymentBuilder db(String db) {
        this.db = db;
        return this;
    }

    /** A schema to create the tables in (keeps a shared PostgreSQL's other tables apart). */
    public DayTraderDeploymentBuilder schema(String schema) {
        this.schema = schema;
        return this;
    }

    public DayTraderDeploymentBuilder users(int users) {
        this.users = users;
        return this;
    }

    public DayTraderDeploymentBuilder quotes(int quotes) {
        this.quotes = quotes;
        return this;
    }

    /** Backend ORB dispatch threads (min = max) and database connections. */
    public DayTraderDeploymentBuilder backendThreads(int threads) {
        this.backendThreads = threads;
        return this;
    }

    /** The web tier's port (0, the default, picks a free one). */
    public DayTraderDeploymentBuilder webPort(int port) {
        this.webPort = port;
        return this;
    }

    public DayTraderDeploymentBuilder httpThreads(int threads) {
        this.httpThreads = threads;
        return this;
    }

    /** Extra JVM options of the backend (e.g. {@code -Dirmi.sla=...}); replaces the default {@code -Xmx1g} if one is given. */
    public DayTraderDeploymentBuilder backendJvmArgs(List<String> args) {
        replaceJvmArgs(backendJvmArgs, args);
        return this;
    }

    public DayTraderDeploymentBuilder webJvmArgs(List<String> args) {
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
    public DayTraderDeploymentBuilder workDir(Path dir) {
        this.workDir = dir;
        return this;
    }

    /** The children's class path (default: this JVM's). JacORB's jars must precede GlassFish's. */
    public DayTraderDeploymentBuilder classPath(String classPath) {
        this.classPath = classPath;
        return this;
    }

    /** Children print to this JVM's console instead of log files. */
    public DayTraderDeploymentBuilder inheritOutput(boolean inherit) {
        this.inheritOutput = inherit;
        return this;
    }

    /**
     * Pins the backend JVM to these CPUs ({@code taskset -c}, e.g. {@code "1"}), so it has its own
     * CPU share as the paper's backend had its own machine; null (the default) does not pin.
     */
    public DayTraderDeploymentBuilder backendCpus(String cpus) {
        this.backendCpus = cpus;
        return this;
    }

    /**
     * Limits the backend JVM to a CPU share ({@link CpuQuota}) on top of its pinning, as the
     * paper's backend ran on a slower machine of its own; null (the default) does not limit.
     */
    public DayTraderDeploymentBuilder backendQuota(CpuQuota quota) {
        this.backendQuota = quota;
        return this;
    }

    /** Pins the web tier JVM to these CPUs ({@code taskset -c}); null (the default) does not pin. */
    public DayTraderDeploymentBuilder webCpus(String cpus) {
        this.webCpus = cpus;
        return this;
    }

    /**
     * The operator's token file (default: {@code operator.token} in the work directory); read when
     * it exists (mode 0600 required), else made.
     */
    public DayTraderDeploymentBuilder operatorTokenFile(Path file) {
        this.operatorTokenFile = file;
        return this;
    }

    public DayTraderDeploymentBuilder startTimeout(Duration timeout) {
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
        ChildJvm backend = ChildJvm.builder("DayTrader backend", BackendMain.class).cpus(backendCpus).quota(backendQuota)
                .jvmOptions(backendJvmArgs).classPath(classPath).args(b).output(output(), dir.resolve("backend.log")).start();
        Properties backendProps;
        try {
            backendProps = backend.awaitReadyFile(backendReady, startTimeout);
        } catch (IOException | InterruptedException | RuntimeException e) {
            backend.stop(DayTraderDeployment.STOP_GRACE_MILLIS);
            throw e;
        }
        OperatorCredential operator;
        try {
            operator = OperatorCredential.loadOrCreate(operatorTokenFile != null ? operatorTokenFile
                    : dir.resolve("operator.token"));
        } catch (IOException e) {
            backend.stop(DayTraderDeployment.STOP_GRACE_MILLIS);
            throw e;
        }
        OrbChoice clientOrb = webOrb == null ? orb : webOrb;
        ChildJvm web = ChildJvm.builder("DayTrader web tier", WebTierMain.class).cpus(webCpus).jvmOptions(webJvmArgs)
                .classPath(classPath).args(List.of("--orb", clientOrb.flag(), "--backend-ready", backendReady.toString(),
                        "--port", Integer.toString(webPort), "--http-threads", Integer.toString(httpThreads),
                        "--ready-file", webReady.toString(), "--operator-token-file", operator.file().toString(),
                        "--watch-stdin"))
                .output(output(), dir.resolve("web.log")).start();
        Properties webProps;
        try {
            webProps = web.awaitReadyFile(webReady, startTimeout);
        } catch (IOException | InterruptedException | RuntimeException e) {
            web.stop(DayTraderDeployment.STOP_GRACE_MILLIS);
            backend.stop(DayTraderDeployment.STOP_GRACE_MILLIS);
            throw e;
        }
        return new DayTraderDeployment(backend, web, Integer.parseInt(webProps.getProperty("port")),
                backendProps.getProperty("ior"), backendProps.getProperty("dashboard"), backendProps.getProperty("metrics"), dir, orb,
                operator);
    }

    /** The tiers write their own logs, or (with {@link #inheritOutput}) their stderr goes to this JVM's. */
    private ChildJvm.Output output() {
        return inheritOutput ? ChildJvm.Output.STDERR_INHERITED : ChildJvm.Output.LOG_FILE;
    }
}
