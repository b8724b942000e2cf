package org.irmi.it;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.irmi.adaptation.IsolationSetup;
import org.irmi.adaptation.ModuleServices;
import org.irmi.isolation.IncomingRequest;
import org.irmi.isolation.IsolationRuntime;
import org.irmi.isolation.OutgoingCall;
import org.irmi.sla.Sla;
import org.omg.CORBA.ORB;

/**
 * What the isolation points cost when nothing triggers. A program, not a test:
 * <pre>
 * mvn -B -q -pl integration-tests test-compile
 * mvn -B -q -pl integration-tests exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=org.irmi.it.IsolationOverheadBenchmark [-Dexec.args="5 3"]
 * </pre>
 * Part 1 times the points' hot paths alone (ns per call, one thread), built from the same SLA files.
 * Part 2 runs a closed-loop RMI-IIOP echo through real I-RMI ORBs on loopback, interleaving rounds
 * with no point, the client's slow-client point only ({@code irmi.sla} = {@code sla/bench-client.yaml}
 * on each client ORB), the server's points only ({@code sla/bench-server.yaml}: poison with
 * per-request cost and edge detection, crosstalk, load reports on replies), and all, and reports
 * the median calls/s of each and its ratio to no point.
 */
public final class IsolationOverheadBenchmark {
    private IsolationOverheadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        hotPaths();
        echo(rounds, seconds);
        System.exit(0);
    }

    /** @return the points of a test SLA file, built as the ORB builds them (without an ORB). */
    private static IsolationRuntime runtime(String slaFile) {
        return IsolationSetup.fromSla(Sla.load(Nodes.sla(slaFile)), ModuleServices.defaults()).build();
    }

    private static void hotPaths() {
        var sc = runtime("bench-client.yaml").slowClient().get();
        var poison = runtime("bench-server.yaml").poison().get();
        OutgoingCall call = OutgoingCall.of("127.0.0.1:4000", 4000, "key", "quote", false);
        int n = 5_000_000;
        for (int warm = 0; warm < 2; warm++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sc.beforeMarshalling(call);
            }
            long t1 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                IncomingRequest r = new IncomingRequest(1, i, "127.0.0.1:5000", "key", "quote", 100,
                        true, null, null);
                poison.onRequestHeader(r);
                poison.onDispatchEnd(r.requestKey(), 10_000, 1_000);
            }
            long t2 = System.nanoTime();
            if (warm == 1) {
                System.out.printf(Locale.ROOT, "hot paths, nothing triggered: slow client %.1f ns/call,"
                        + " poison header+end %.1f ns/request%n", (t1 - t0) / (double) n,
                        (t2 - t1) / (double) n);
            }
        }
    }

    /** Which points run in a round. */
    enum Points { NONE, CLIENT, SERVER, ALL }

    private static void echo(int rounds, int seconds) throws Exception {
        Points[] kinds = Points.values();
        double[][] rates = new double[kinds.length][rounds];
        for (int r = 0; r < rounds; r++) {
            StringBuilder line = new StringBuilder("round " + (r + 1) + ":");
            for (int k = 0; k < kinds.length; k++) {
                rates[k][r] = round(kinds[k], seconds);
                line.append(String.format(Locale.ROOT, " %s %.0f", kinds[k], rates[k][r]));
            }
            System.out.println(line + " calls/s");
        }
        double plain = median(rates[0]);
        StringBuilder sum = new StringBuilder(String.format(Locale.ROOT,
                "echo, 4 client threads, %d rounds of %d s, medians: NONE %.0f calls/s", rounds,
                seconds, plain));
        for (int k = 1; k < kinds.length; k++) {
            double m = median(rates[k]);
            sum.append(String.format(Locale.ROOT, ", %s %.0f (%.3f)", kinds[k], m, m / plain));
        }
        System.out.println(sum);
    }

    private static double median(double[] v) {
        double[] s = Arrays.stream(v).filter(x -> !Double.isNaN(x)).toArray();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static double round(Points which, int seconds) throws Exception {
        boolean serverPoints = which == Points.SERVER || which == Points.ALL;
        boolean clientPoints = which == Points.CLIENT || which == Points.ALL;
        ORB server = serverPoints ? Nodes.irmi(Nodes.sla("bench-server.yaml")) : Nodes.irmi();
        List<ORB> clients = new ArrayList<>();
        try {
            String ior = Nodes.export(server, new TradeImpl("echo"));
            IsolationRuntime serverRt = serverPoints ? Nodes.runtime(server) : null;
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicLong calls = new AtomicLong();
            List<IsolationRuntime> clientRts = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                ORB c = clientPoints ? Nodes.irmi(Nodes.sla("bench-client.yaml")) : Nodes.irmi();
                clients.add(c);
                if (clientPoints) {
                    clientRts.add(Nodes.runtime(c));
                }
                Trade trade = Nodes.lookup(c, ior);
                Thread th = new Thread(() -> {
                    while (running.get()) {
                        try {
                            trade.quote("IBM");
                            calls.incrementAndGet();
                        } catch (Exception e) {
                            return;
                        }
                    }
                });
                th.setDaemon(true);
                th.start();
                threads.add(th);
            }
            Thread.sleep(1_000); // warm-up
            long c0 = calls.get();
            long t0 = System.nanoTime();
            Thread.sleep(seconds * 1000L);
            double rate = (calls.get() - c0) / ((System.nanoTime() - t0) / 1e9);
            running.set(false);
            long triggered = 0;
            for (IsolationRuntime crt : clientRts) {
                for (org.irmi.isolation.Decision.Action a : org.irmi.isolation.Decision.Action.values()) {
                    if (a != org.irmi.isolation.Decision.Action.PROCEED) {
                        triggered += crt.decisions(org.irmi.isolation.PointKind.SLOW_CLIENT, a);
                    }
                }
            }
            if (serverRt != null) {
                triggered += serverRt.decisions(org.irmi.isolation.PointKind.POISON_MESSAGE,
                        org.irmi.isolation.Decision.Action.REJECT);
            }
            if (triggered > 0) {
                System.out.println("  (round invalid: " + triggered + " calls were decided, not proceeded)");
                return Double.NaN;
            }
            for (Thread th : threads) {
                th.join(2_000);
            }
            return rate;
        } finally {
            Nodes.destroy(clients.toArray(new ORB[0]));
            Nodes.destroy(server);
        }
    }
}
