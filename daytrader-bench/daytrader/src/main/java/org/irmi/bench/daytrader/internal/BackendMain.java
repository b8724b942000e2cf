package org.irmi.bench.daytrader.internal;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.irmi.bench.daytrader.OrbChoice;
import org.irmi.bench.daytrader.RmiIiop;
import org.irmi.bench.daytrader.SecondSample;
import org.irmi.bench.daytrader.TimeSeriesCsv;
import org.omg.CORBA.ORB;

/**
 * The backend JVM: creates and populates the database, serves {@link TradeServicesImpl} over
 * RMI-IIOP on the chosen ORB, samples its time series every second, and writes a ready file with
 * its IOR.
 *
 * <pre>
 * BackendMain [--orb irmi|jacorb] [--db h2|JDBC-URL] [--schema NAME] [--users 15000] [--quotes 10000]
 *             [--pool 32] [--threads 32] [--ready-file FILE] [--timeseries-csv FILE] [--watch-stdin]
 * </pre>
 */
public final class BackendMain {
    static final Set<String> OPTIONS = Set.of("orb", "db", "schema", "users", "quotes", "pool", "threads", "ready-file",
            "timeseries-csv", "seed");

    private BackendMain() {
    }

    public static void main(String[] argv) throws Exception {
        TierStartup start = TierStartup.begin("backend", argv, OPTIONS);
        Args args = start.args();
        OrbChoice orbChoice = start.orb();
        String db = args.get("db", "h2");
        String url = "h2".equals(db) ? TradeDatabase.EMBEDDED_H2_URL : db;
        int users = start.users();
        int quotes = start.quotes();
        int threads = args.getInt("threads", 32, 1);
        HikariDataSource pool = TradeDatabase.pool(url, args.get("schema", null), args.getInt("pool", threads, 1));
        long t0 = System.nanoTime();
        TradeDatabase.createAndPopulate(pool, users, quotes, Long.parseLong(args.get("seed", "42")));
        System.err.printf("backend: populated %s with %,d users and %,d quotes in %.1f s%n", url, users, quotes,
                (System.nanoTime() - t0) / 1e9);

        TimeSeriesRecorder recorder = new TimeSeriesRecorder(24 * 3600);
        TradeServicesImpl service = new TradeServicesImpl(pool, recorder, System::nanoTime, System::currentTimeMillis);
        ORB orb = RmiIiop.initOrb(orbChoice, threads, new Properties());
        String ior = RmiIiop.export(orb, service);
        ChildProcessSupport.startSampler(recorder);
        String csv = args.get("timeseries-csv", null);
        if (csv != null) {
            startCsvWriter(recorder, Path.of(csv));
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                service.shutdown();
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
            pool.close();
        }, "backend-shutdown"));
        String ready = args.get("ready-file", null);
        if (ready != null) {
            Map<String, String> facts = new java.util.HashMap<>(Map.of("ior", ior, "orb", orbChoice.flag(), "db", url,
                    "users", Integer.toString(users), "quotes", Integer.toString(quotes)));
            // the isolation points' dashboard and Prometheus endpoint, when the ORB was started with irmi.sla
            // and irmi.dashboard.port, irmi.metrics.port
            java.util.Optional<org.irmi.orb.isolation.OrbIsolation> isolation =
                    org.irmi.orb.IrmiORB.of(orb).flatMap(org.irmi.orb.isolation.OrbIsolation::of);
            isolation.flatMap(org.irmi.orb.isolation.OrbIsolation::dashboardUrl).ifPresent(u -> facts.put("dashboard", u));
            isolation.flatMap(org.irmi.orb.isolation.OrbIsolation::metricsUrl).ifPresent(u -> facts.put("metrics", u));
            ChildProcessSupport.writeReadyFile(Path.of(ready), facts);
        }
        System.err.println("backend: ready on " + orbChoice.flag() + " (" + orbChoice.orbClass() + ")");
        System.out.println(ior);
        orb.run();
    }

    /** Rewrites {@code file} every 5 s with the whole kept time series (CSV, see {@link TimeSeriesCsv}). */
    private static void startCsvWriter(TimeSeriesRecorder recorder, Path file) {
        Thread t = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(5_000);
                    List<SecondSample> all = recorder.since(0);
                    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
                    Files.writeString(tmp, TimeSeriesCsv.format(all));
                    Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    System.err.println("backend: cannot write " + file + ": " + e);
                }
            }
        }, "backend-csv");
        t.setDaemon(true);
        t.start();
    }
}
