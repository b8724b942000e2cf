package org.irmi.bench.daytrader;

import java.nio.file.Path;
import java.util.Set;
import org.irmi.bench.daytrader.internal.Args;

/**
 * {@code ./irmi daytrader}: starts the database (embedded H2 unless {@code --db} names a JDBC URL),
 * the backend JVM and the web tier JVM, prints where to point a browser and httperf, and stops
 * both tiers on Ctrl-C.
 *
 * <pre>
 * ./irmi daytrader [--orb irmi|jacorb] [--db h2|jdbc:postgresql://127.0.0.1:5432/test] [--schema NAME]
 *                  [--users 15000] [--quotes 10000] [--port 8080] [--threads 32] [--dir DIR]
 *                  [--sla FILE] [--dashboard-port 0]
 * </pre>
 * On I-RMI the backend runs with an SLA ({@code --sla}, else the bundled {@code backend-sla.yaml}
 * copied to the run's directory) and the dashboard of its isolation points on
 * {@code --dashboard-port} (0, the default: any free port), whose URL is printed.
 */
public final class DayTraderMain {
    private static final Set<String> OPTIONS = Set.of("orb", "db", "schema", "users", "quotes", "port", "threads", "dir",
            "sla", "dashboard-port");

    private DayTraderMain() {
    }

    public static void main(String[] argv) throws Exception {
        DayTraderDeploymentBuilder b = DayTraderDeployment.builder();
        int port;
        OrbChoice orb;
        try {
            Args a = Args.parse(argv, OPTIONS, Set.of());
            orb = OrbChoice.parse(a.get("orb", "irmi"));
            port = a.getInt("port", 8080, 0);
            b.orb(orb).db(a.get("db", "h2")).users(a.getInt("users", 15_000, 1)).quotes(a.getInt("quotes", 10_000, 1))
                    .webPort(port).backendThreads(a.getInt("threads", 32, 1));
            if (a.has("schema")) {
                b.schema(a.get("schema", null));
            }
            Path dir = a.has("dir") ? Path.of(a.get("dir", null)) : java.nio.file.Files.createTempDirectory("daytrader-");
            b.workDir(dir);
            if (orb == OrbChoice.IRMI) {
                b.backendJvmArgs(isolationArgs(a, dir));
            }
            if (!orb.isAvailable()) {
                throw new IllegalArgumentException("the I-RMI ORB is not built yet (no " + orb.orbClass()
                        + " on the class path); build it (mvn -B -q -pl irmi-orb install -DskipTests, then ./irmi build)"
                        + " or run ./irmi daytrader --orb jacorb");
            }
        } catch (IllegalArgumentException | java.io.IOException e) {
            System.err.println("daytrader: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.err.println("daytrader: starting the backend (populating the database) and the web tier on " + orb.flag() + " ...");
        DayTraderDeployment dt = b.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.err.println("daytrader: stopping the web tier and the backend ...");
            dt.close();
        }, "daytrader-stop"));
        int p = dt.webPort();
        System.out.println();
        System.out.println("DayTrader is running (" + orb.flag() + " ORB). Logs: " + dt.workDir());
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
        System.out.println("  httperf (the paper's load, 4 sessions, 0.1 s think time, about 60 s):");
        System.out.println("    " + unmaskedFromFile(Httperf.paperLoad("127.0.0.1", p, 60, dt.operatorToken()), token));
        System.out.println("  httperf (saturating mix, 32 sessions, no think time):");
        System.out.println("    " + unmaskedFromFile(Httperf.saturation("127.0.0.1", p, 32, 500, dt.operatorToken()), token));
        System.out.println("Press Ctrl-C to stop.");
        while (dt.isAlive()) {
            Thread.sleep(1000); // the tiers run in their own JVMs; this JVM only waits for Ctrl-C or a tier's death
        }
        System.err.println("daytrader: a tier stopped unexpectedly; see " + dt.workDir() + "/backend.log and web.log");
        System.exit(1);
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

    /** The backend's {@code irmi.sla} (the bundled SLA copied to {@code dir} unless --sla names one) and dashboard port. */
    private static java.util.List<String> isolationArgs(Args a, Path dir) throws java.io.IOException {
        Path sla;
        if (a.has("sla")) {
            sla = Path.of(a.get("sla", null)).toAbsolutePath();
            if (!java.nio.file.Files.isRegularFile(sla)) {
                throw new IllegalArgumentException("--sla " + sla + ": no such file");
            }
        } else {
            sla = dir.resolve("backend-sla.yaml").toAbsolutePath();
            try (java.io.InputStream in = DayTraderMain.class.getResourceAsStream("backend-sla.yaml")) {
                java.nio.file.Files.copy(in, sla, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        int port = a.getInt("dashboard-port", 0, 0);
        if (port > 65_535) {
            throw new IllegalArgumentException("--dashboard-port must be 0..65535 (0: any free port), was " + port);
        }
        return java.util.List.of("-Dirmi.sla=" + sla, "-Dirmi.dashboard.port=" + port);
    }
}
