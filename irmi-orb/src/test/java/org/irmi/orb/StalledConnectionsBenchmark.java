package org.irmi.orb;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import irmitest.Echo;
import irmitest.EchoHelper;

import org.omg.CORBA.ORB;

/**
 * Issue 38's stalled-connection case, measured: an echo server (I-RMI or stock JacORB, each with its
 * defaults, in a JVM of its own) holds N connections that each sent 2 bytes and stalled (from
 * 127.0.0.2), and a new stock JacORB client (from 127.0.0.1) connects and calls once, several times
 * over, each with an ORB of its own. Prints one markdown row per server and N: the newcomer's
 * connect+call time (median, max) and its errors.
 *
 * <p>Arguments: {@code [--stalled 1000,10000] [--servers irmi,stock] [--calls 20]}. Needs file
 * descriptors for the largest N in this JVM and in the server's ({@code scripts/stalled-bench.sh}
 * raises {@code ulimit -n}).
 */
public final class StalledConnectionsBenchmark {

    private StalledConnectionsBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        List<Integer> counts = List.of(1000, 10_000);
        List<String> servers = List.of("irmi", "stock");
        int calls = 20;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--stalled" -> counts = ints(args[i + 1]);
                case "--servers" -> servers = List.of(args[i + 1].split(","));
                case "--calls" -> calls = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (known: --stalled, --servers, --calls)");
            }
        }
        System.out.println("| server | stalled connections | newcomer calls | served | errors | connect+call median (ms) "
                + "| max (ms) | server: open, shed, refused |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        for (int n : counts) {
            for (String server : servers) {
                System.out.println(run(server, n, calls));
            }
        }
    }

    private static String run(String kind, int stalledCount, int calls) throws Exception {
        try (ServerProcess server = ServerProcess.start(kind, stalledCount + 1024, "-Xmx1g")) {
            String ior = server.ior();
            try (StalledSockets stalled = StalledSockets.open(server.port, stalledCount, InetAddress.getByName("127.0.0.2"))) {
                awaitSettled(server, kind, stalledCount);
                List<Long> micros = new ArrayList<>();
                Map<String, Integer> errors = new java.util.TreeMap<>();
                for (int i = 0; i < calls; i++) {
                    ORB client = Orbs.stock("jacorb.retries", "0", "jacorb.connection.client.pending_reply_timeout", "10000",
                            "jacorb.connection.client.connect_timeout", "10000");
                    try {
                        Echo echo = EchoHelper.unchecked_narrow(client.string_to_object(ior));
                        long start = System.nanoTime();
                        try {
                            echo.echoString("newcomer"); // the first call opens the connection
                            micros.add((System.nanoTime() - start) / 1000);
                        } catch (RuntimeException e) {
                            errors.merge(e.getClass().getSimpleName(), 1, Integer::sum);
                        }
                    } finally {
                        Orbs.destroy(client);
                    }
                }
                micros.sort(null);
                String median = micros.isEmpty() ? "-" : ms(micros.get(micros.size() / 2));
                String max = micros.isEmpty() ? "-" : ms(micros.get(micros.size() - 1));
                String serverSide = "stock".equals(kind) ? "-" : serverSide(server.stats());
                return "| " + ("stock".equals(kind) ? "stock JacORB" : "I-RMI") + " | " + String.format(Locale.ROOT, "%,d", stalledCount)
                        + " | " + calls + " | " + micros.size() + " | " + (errors.isEmpty() ? "0" : errors.toString())
                        + " | " + median + " | " + max + " | " + serverSide + " |";
            }
        }
    }

    /**
     * Waits until the I-RMI server holds every stalled connection (bounded: 60 s); stock JacORB
     * reports nothing, so it gets as long as I-RMI needed for its accepts, at least 2 s.
     */
    private static void awaitSettled(ServerProcess server, String kind, int stalledCount) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + 60_000_000_000L;
        if ("stock".equals(kind)) {
            Thread.sleep(Math.max(2000, stalledCount / 2)); // a benchmark's settle time: stock JacORB has no count to wait for
            return;
        }
        while (server.stats().getOrDefault("open", 0L) < stalledCount && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
    }

    private static String serverSide(Map<String, Long> s) {
        return "open " + s.get("open") + ", shed " + (s.get("shedNeverCompleted") + s.get("shedStalled") + s.get("shedIdle"))
                + ", refused " + s.get("refusedConnections");
    }

    private static String ms(long micros) {
        return String.format(Locale.ROOT, "%.1f", micros / 1000.0);
    }

    private static List<Integer> ints(String csv) {
        List<Integer> out = new ArrayList<>();
        for (String s : csv.split(",")) {
            out.add(Integer.parseInt(s.trim()));
        }
        return out;
    }
}
