package org.irmi.bench.daytrader;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.irmi.sla.Sla;
import org.irmi.sla.SlaError;
import org.irmi.sla.SlaException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code ./irmi daytrader}: starts the database (embedded H2 unless {@code --db} names a JDBC URL),
 * the backend JVM and the web tier JVM, prints where to point a browser and httperf, and stops
 * both tiers on Ctrl-C (or SIGTERM), saying so.
 *
 * <pre>
 * ./irmi daytrader [--orb irmi|jacorb] [--db h2|jdbc:postgresql://127.0.0.1:5432/test] [--schema NAME]
 *                  [--users 15000] [--quotes 10000] [--port 8080] [--threads 32] [--dir DIR]
 *                  [--sla FILE] [--dashboard-port 0] [--metrics-port N]
 * </pre>
 * On I-RMI the backend runs with an SLA ({@code --sla}, else the bundled {@code backend-sla.yaml}
 * copied to the run's directory) and the dashboard of its isolation points on
 * {@code --dashboard-port} (0, the default: any free port), whose URL is printed; with
 * {@code --metrics-port} it also serves its meters for Prometheus ({@code /metrics}, the ORB's
 * {@code irmi.metrics.port}), whose URL is printed too. An {@code --sla} file is loaded before anything
 * starts, and its errors are printed as {@code file:line:col: message}.
 *
 * <p>Exit status: 130 after Ctrl-C and 143 after SIGTERM (as for any program a signal stops), once both
 * tiers stopped; 1 when DayTrader did not start or a tier stopped by itself; 2 on a bad option or an
 * SLA with errors.
 */
@Command(name = "./irmi daytrader", sortOptions = false, usageHelpAutoWidth = true,
        // One paragraph per element: picocli wraps each to the terminal's width (80 columns when piped).
        description = {"Starts DayTrader: the database, the backend JVM and the web tier JVM, RMI-IIOP between them, "
                + "and prints where to point a browser, httperf, the dashboard and Prometheus. Ctrl-C stops both tiers."},
        footer = {"", "Exit status: 130 stopped by Ctrl-C (143 by SIGTERM), 1 did not start or a tier stopped by itself, "
                + "2 bad option or an SLA with errors.", "More: docs/daytrader.md."})
public final class DayTraderMain implements Callable<Integer> {
    /** How long a tier's death may precede this JVM's own Ctrl-C: a terminal sends SIGINT to all three at once. */
    static final long CTRL_C_GRACE_MILLIS = 2_000;

    @Option(names = "--orb", paramLabel = "irmi|jacorb", defaultValue = "irmi",
            description = "The ORB of both tiers (default: ${DEFAULT-VALUE}).")
    private String orb;

    @Option(names = "--db", paramLabel = "h2|JDBC-URL", defaultValue = "h2",
            description = "Embedded H2 (the default) or a JDBC URL, e.g. jdbc:postgresql://127.0.0.1:5432/test.")
    private String db;

    @Option(names = "--schema", paramLabel = "NAME", description = "A schema for the tables (keeps a shared database's other tables apart).")
    private String schema;

    @Option(names = "--users", paramLabel = "N", defaultValue = "15000", description = "User accounts to create (default: ${DEFAULT-VALUE}).")
    private int users;

    @Option(names = "--quotes", paramLabel = "N", defaultValue = "10000", description = "Quote symbols to create (default: ${DEFAULT-VALUE}).")
    private int quotes;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "8080",
            description = "The web tier's HTTP port on 127.0.0.1; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "32",
            description = "Backend dispatch threads and database connections (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Option(names = "--dir", paramLabel = "DIR", description = "Where logs, ready files and the operator token go (default: a new temporary directory).")
    private Path dir;

    @Option(names = "--sla", paramLabel = "FILE",
            description = "I-RMI only: the backend's SLA YAML, checked before anything starts (default: the bundled "
                    + "backend-sla.yaml, copied to --dir).")
    private Path sla;

    @Option(names = "--dashboard-port", paramLabel = "PORT", defaultValue = "0",
            description = "I-RMI only: the backend's dashboard of its isolation points on 127.0.0.1; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    private int dashboardPort;

    @Option(names = "--metrics-port", paramLabel = "PORT",
            description = "I-RMI only: serve the backend's meters for Prometheus on http://127.0.0.1:PORT/metrics; 0 picks a free one (default: not served).")
    private Integer metricsPort;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Print this help and exit.")
    private boolean help;

    @Spec
    private CommandSpec spec;

    private DayTraderMain() {
    }

    public static void main(String[] argv) {
        int status = commandLine().execute(argv);
        System.exit(status);
    }

    /** The command; {@code execute(args)} runs it (and blocks until Ctrl-C once DayTrader started). */
    public static CommandLine commandLine() {
        return new CommandLine(new DayTraderMain());
    }

    @Override
    public Integer call() throws Exception {
        OrbChoice choice = checkOptions();
        if (sla != null && !slaIsValid()) {
            return 2;
        }
        DayTraderDeploymentBuilder b = deployment(choice);
        System.err.println("daytrader: starting the backend (populating the database) and the web tier on " + choice.flag() + " ...");
        DayTraderDeployment dt;
        try {
            dt = b.start();
        } catch (IOException | RuntimeException e) {
            System.err.println("daytrader: DayTrader did not start: " + e.getMessage());
            return 1;
        }
        AtomicBoolean stopping = new AtomicBoolean();
        Thread stopper = new Thread(() -> {
            stopping.set(true);
            System.err.println();
            System.err.println("daytrader: stopping (Ctrl-C or SIGTERM): the web tier, then the backend ...");
            dt.close();
            System.err.println("daytrader: stopped; logs in " + dt.workDir());
        }, "daytrader-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        printWhereToPoint(dt, choice);
        while (dt.isAlive()) {
            Thread.sleep(200); // the tiers run in their own JVMs; this JVM only waits for Ctrl-C or a tier's death
        }
        // A terminal's Ctrl-C reaches the tiers too, which may die before this JVM's hook starts: wait for it.
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CTRL_C_GRACE_MILLIS);
        while (!stopping.get() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        if (stopping.get()) {
            stopper.join(); // the JVM is shutting down; the hook says what happened
            return 0;
        }
        Runtime.getRuntime().removeShutdownHook(stopper);
        System.err.println("daytrader: a tier stopped by itself; stopping the other. See " + dt.workDir() + "/backend.log and web.log");
        dt.close();
        return 1;
    }

    /** Checks the options; a bad option is a {@link ParameterException} (exit 2, the message and the usage). */
    private OrbChoice checkOptions() {
        OrbChoice choice;
        try {
            choice = OrbChoice.parse(orb);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        atLeast("--users", users, 1);
        atLeast("--quotes", quotes, 1);
        atLeast("--threads", threads, 1);
        port("--port", port);
        port("--dashboard-port", dashboardPort);
        if (metricsPort != null) {
            port("--metrics-port", metricsPort);
        }
        if (choice != OrbChoice.IRMI) {
            for (String irmiOnly : List.of("--sla", "--dashboard-port", "--metrics-port")) {
                if (spec.commandLine().getParseResult().hasMatchedOption(irmiOnly)) {
                    throw new ParameterException(spec.commandLine(), irmiOnly
                            + " serves the I-RMI backend's isolation points; stock JacORB has none (use --orb irmi)");
                }
            }
        }
        if (sla != null && !Files.isRegularFile(slaFile())) {
            throw new ParameterException(spec.commandLine(), "--sla " + slaFile().toAbsolutePath() + ": no such file");
        }
        if (!choice.isAvailable()) {
            throw new ParameterException(spec.commandLine(), "the I-RMI ORB is not built yet (no " + choice.orbClass()
                    + " on the class path); build it (./irmi build) or run ./irmi daytrader --orb jacorb");
        }
        return choice;
    }

    /** The {@code --sla} file, a relative name read from the directory {@code ./irmi} was called from. */
    private Path slaFile() {
        return org.irmi.sla.SlaCheck.resolve(sla.toString());
    }

    /**
     * Loads {@code --sla} with the loader the backend's ORB uses, so a mistake is reported here, before the
     * database is populated, rather than as a backend that never became ready. Prints every error as
     * {@code file:line:col: message} (the file as given), as {@code ./irmi sla-check} does.
     *
     * @return whether the SLA is valid
     */
    private boolean slaIsValid() {
        try {
            Sla.load(slaFile());
            return true;
        } catch (SlaException e) {
            PrintWriter err = spec.commandLine().getErr();
            for (SlaError error : e.errors()) {
                err.println(sla + ":" + error.line() + ":" + error.column() + ": " + error.message());
            }
            err.println("daytrader: --sla " + sla + " has " + e.errors().size() + (e.errors().size() == 1 ? " error" : " errors")
                    + "; nothing was started. Fix it, check it with ./irmi sla-check " + sla + ", and start again.");
            err.flush();
            return false;
        }
    }

    /** The deployment the checked options describe; creates the work directory (and copies the bundled SLA). */
    private DayTraderDeploymentBuilder deployment(OrbChoice choice) throws IOException {
        Path work = dir != null ? Files.createDirectories(dir) : Files.createTempDirectory("daytrader-");
        DayTraderDeploymentBuilder b = DayTraderDeployment.builder().orb(choice).db(db).users(users).quotes(quotes)
                .webPort(port).backendThreads(threads).workDir(work);
        if (schema != null) {
            b.schema(schema);
        }
        if (choice == OrbChoice.IRMI) {
            b.backendJvmArgs(isolationArgs(work));
        }
        return b;
    }

    private void atLeast(String option, int value, int min) {
        if (value < min) {
            throw new ParameterException(spec.commandLine(), option + " must be at least " + min + ", was " + value);
        }
    }

    private void port(String option, int value) {
        if (value < 0 || value > 65_535) {
            throw new ParameterException(spec.commandLine(), option + " must be 0..65535 (0: any free port), was " + value);
        }
    }

    private static void printWhereToPoint(DayTraderDeployment dt, OrbChoice choice) {
        int p = dt.webPort();
        System.out.println();
        System.out.println("DayTrader is running (" + choice.flag() + " ORB). Logs: " + dt.workDir());
        String token = "\"$(cat " + dt.operatorTokenFile() + ")\"";
        String bearer = "-H \"Authorization: Bearer " + "$(cat " + dt.operatorTokenFile() + ")\"";
        System.out.println("  browser:   http://127.0.0.1:" + p + "/daytrader/home   (log in as uid:0 .. with password xxx)");
        System.out.println("  operator token: " + dt.operatorTokenFile() + "   (mode 0600; send it as Authorization: Bearer TOKEN"
                + " for scenario, poison, audit and the summary reset)");
        System.out.println("  scenario:  curl -X POST " + bearer + " http://127.0.0.1:" + p + "/daytrader/scenario"
                + "   (one request of the standard mix)");
        System.out.println("  poison:    curl " + bearer + " -d millis=4000 http://127.0.0.1:" + p + "/daytrader/poison");
        System.out.println("  audit:     curl " + bearer + " http://127.0.0.1:" + p + "/daytrader/audit");
        System.out.println("  series:    http://127.0.0.1:" + p + "/daytrader/timeseries.csv?tier=backend&since=0");
        dt.backendDashboardUrl().ifPresent(u -> System.out.println("  dashboard: " + u
                + "   (the backend's isolation points, live; SLA in " + dt.workDir() + ")"));
        dt.backendMetricsUrl().ifPresent(u -> System.out.println("  metrics:   " + u
                + "   (the backend's meters for Prometheus)"));
        System.out.println("  httperf (the paper's load, 4 sessions, 0.1 s think time, about 60 s):");
        System.out.println("    " + unmaskedFromFile(Httperf.paperLoad("127.0.0.1", p, 60, dt.operatorToken()), token));
        System.out.println("  httperf (saturating mix, 32 sessions, no think time):");
        System.out.println("    " + unmaskedFromFile(Httperf.saturation("127.0.0.1", p, 32, 500, dt.operatorToken()), token));
        System.out.println("Press Ctrl-C to stop.");
        System.out.flush();
    }

    /**
     * The workload's command line for a shell, the token never printed: the masked token becomes a
     * command substitution that reads the token file, so the line still runs as printed.
     */
    static String unmaskedFromFile(HttperfWorkload w, String tokenFromFile) {
        StringBuilder sb = new StringBuilder("httperf");
        for (String arg : w.arguments()) {
            String shown = w.mask(arg);
            sb.append(' ');
            if (shown.contains(HttperfWorkload.MASKED_TOKEN)) {
                int at = shown.indexOf(HttperfWorkload.MASKED_TOKEN);
                sb.append('\'').append(shown, 0, at).append('\'').append(tokenFromFile).append('\'')
                        .append(shown.substring(at + HttperfWorkload.MASKED_TOKEN.length())).append('\'');
            } else {
                sb.append(shown.contains(" ") ? "'" + shown + "'" : shown);
            }
        }
        return sb.toString();
    }

    /**
     * The backend's {@code irmi.sla} (the bundled SLA copied to {@code work} unless --sla names one),
     * dashboard port and, with --metrics-port, {@code irmi.metrics.port}.
     */
    private List<String> isolationArgs(Path work) throws IOException {
        Path file;
        if (sla != null) {
            file = slaFile().toAbsolutePath();
        } else {
            file = work.resolve("backend-sla.yaml").toAbsolutePath();
            try (InputStream in = DayTraderMain.class.getResourceAsStream("backend-sla.yaml")) {
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        List<String> args = new ArrayList<>(List.of("-Dirmi.sla=" + file, "-Dirmi.dashboard.port=" + dashboardPort));
        if (metricsPort != null) {
            args.add("-Dirmi.metrics.port=" + metricsPort);
        }
        return args;
    }
}
