package org.irmi.orb;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

import org.omg.CORBA.ORB;

/**
 * An echo server in a JVM of its own, so a test can give it a small heap and attack it without
 * risking its own: prints {@code IOR <ior>}, then answers {@code stats} on stdin with one
 * {@code STATS} line and ends on {@code quit} or end of input.
 *
 * <p>Arguments: {@code irmi} or {@code stock} (plain JacORB, for comparison figures), and the port.
 */
public final class HostileServerMain {

    private HostileServerMain() {
    }

    public static void main(String[] args) throws Exception {
        boolean stock = args[0].equals("stock");
        String port = args[1];
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> System.out.println("UNCAUGHT " + t.getName() + " " + e));
        ORB server = stock ? Orbs.stock("OAPort", port) : Orbs.irmi("OAPort", port);
        String ior = Orbs.serve(server, new EchoServant());
        WaitTrace trace = !stock && Boolean.getBoolean("irmi.hostile.trace")
                ? new WaitTrace(IrmiORB.of(server).orElseThrow().hooks()) : null;
        if (!stock) {
            // Loaded now: a test may take every file descriptor, and then no class file can be opened.
            stats(server);
        }
        System.out.println("IOR " + ior);
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null && !line.equals("quit")) {
            if (line.startsWith("trace ") && trace != null) {
                try {
                    System.out.print(trace.report(line.substring(6)));
                    System.out.println("TRACE " + line.substring(6) + " transport " + stats(server));
                } catch (RuntimeException e) {
                    System.out.println("TRACE failed: " + e); // a diagnostic must not end the server
                }
                System.out.flush();
            }
            if (line.equals("stats")) {
                long maxHeap = Runtime.getRuntime().maxMemory();
                if (stock) {
                    System.out.println("STATS maxHeap=" + maxHeap);
                } else {
                    System.out.println("STATS maxHeap=" + maxHeap + " " + stats(server));
                }
                System.out.flush();
            }
        }
        Orbs.destroy(server);
        System.exit(0);
    }

    private static String stats(ORB server) {
        TransportStats s = Orbs.transport(server).stats();
        return "held=" + s.inboundHeldBytes() + " limit=" + s.inboundLimitBytes() + " pauses=" + s.budgetPauses()
                + " closes=" + s.budgetCloses() + " oversize=" + s.oversizeRefused() + " open=" + s.openConnections() + " acceptFailures=" + s.acceptFailures()
                + " inFlight=" + s.requestsInFlight() + " waiting=" + s.requestsWaiting() + " requestsLimit=" + s.requestsLimit()
                + " refused=" + s.refusedConnections() + " shedNeverCompleted=" + s.shedNeverCompleted()
                + " shedStalled=" + s.shedStalled() + " shedIdle=" + s.shedIdle();
    }
}
