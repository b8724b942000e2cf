package org.irmi.bench.daytrader.internal;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.irmi.bench.daytrader.OrbChoice;
import org.irmi.bench.daytrader.RmiIiop;
import org.irmi.bench.daytrader.TradeServices;
import org.omg.CORBA.ORB;

/**
 * The web tier JVM: Jetty serving {@link WebTier}, calling the backend whose IOR is in
 * {@code --backend-ready FILE} (or given by {@code --ior}) over RMI-IIOP on the chosen client ORB.
 *
 * <pre>
 * WebTierMain [--orb irmi|jacorb] (--backend-ready FILE | --ior IOR) [--port 0] [--users 15000] [--quotes 10000]
 *             [--http-threads 200] [--operator-token-file FILE] [--ready-file FILE] [--watch-stdin]
 * </pre>
 *
 * <p>{@code --operator-token-file}: the operator's token ({@link OperatorCredential}); read when the
 * file exists (it must be mode 0600), else a new one is written there. Without the option, a new
 * token goes to a new 0600 file in a new directory under the temporary directory. The ready file names the token file
 * ({@code operatorTokenFile}), never the token.
 */
public final class WebTierMain {
    static final Set<String> OPTIONS = Set.of("orb", "backend-ready", "ior", "port", "users", "quotes", "http-threads",
            "ready-file", "operator-token-file");

    private WebTierMain() {
    }

    public static void main(String[] argv) throws Exception {
        TierStartup start = TierStartup.begin("web", argv, OPTIONS);
        Args args = start.args();
        OrbChoice orbChoice = start.orb();
        String ior = args.get("ior", null);
        int users = start.users();
        int quotes = start.quotes();
        if (ior == null) {
            String ready = args.get("backend-ready", null);
            if (ready == null) {
                System.err.println("web: give the backend with --backend-ready FILE or --ior IOR");
                System.exit(2);
            }
            Properties p = new Properties();
            try (InputStream in = Files.newInputStream(Path.of(ready))) {
                p.load(in);
            }
            ior = p.getProperty("ior");
            users = args.has("users") ? users
                    : Integer.parseInt(p.getProperty("users", Integer.toString(TierStartup.DEFAULT_USERS)));
            quotes = args.has("quotes") ? quotes
                    : Integer.parseInt(p.getProperty("quotes", Integer.toString(TierStartup.DEFAULT_QUOTES)));
        }
        OperatorCredential operator;
        try {
            String tokenFile = args.get("operator-token-file", null);
            operator = OperatorCredential.loadOrCreate(tokenFile != null ? Path.of(tokenFile)
                    : Files.createTempDirectory("daytrader-operator-").resolve("operator.token")); // a 0700 directory
        } catch (java.io.IOException e) {
            System.err.println("web: " + e.getMessage());
            System.exit(2);
            return;
        }
        ORB orb = RmiIiop.initOrb(orbChoice, 4, new Properties());
        TradeServices trade = RmiIiop.connect(orb, ior, TradeServices.class);

        TimeSeriesRecorder recorder = new TimeSeriesRecorder(24 * 3600);
        ChildProcessSupport.startSampler(recorder);
        QueuedThreadPool threads = new QueuedThreadPool(args.getInt("http-threads", 200, 8), 16);
        threads.setName("web");
        Server server = new Server(threads);
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(args.getInt("port", 0, 0));
        connector.setAcceptQueueSize(1024);
        server.addConnector(connector);
        server.setHandler(new WebTier(trade, recorder, System::nanoTime, ScenarioMix.STANDARD, users, quotes, operator));
        server.setStopAtShutdown(true);
        server.start();
        int port = connector.getLocalPort();
        String ready = args.get("ready-file", null);
        if (ready != null) {
            ChildProcessSupport.writeReadyFile(Path.of(ready), Map.of("port", Integer.toString(port), "orb", orbChoice.flag(),
                    "operatorTokenFile", operator.file().toAbsolutePath().toString()));
        }
        System.err.println("web: ready on http://127.0.0.1:" + port + "/daytrader/ (" + orbChoice.flag() + " client ORB);"
                + " operator token in " + operator.file().toAbsolutePath());
        server.join();
    }
}
