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
 * <p>It also exports an RMI-IIOP {@link org.irmi.orb.rmi.RemoteEchoImpl} (line {@code RMI <ior>};
 * on stock JacORB with GlassFish's {@code Util}, as a stock RMI-IIOP server), and {@code STATS}
 * carries what the value tests measure: {@code heapPeak} (bytes, all heap pools, since the last
 * {@code resetpeak}), {@code cpu} (the process's CPU time, ns), {@code rss} (bytes) and, on I-RMI,
 * {@code refused} and {@code refused.<kind>} (the value filter's counters), and the transport's figures
 * ({@code open}, {@code refusedConnections}, {@code shedNeverCompleted} and the rest).
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
        String rmiIor = exportRmi(server, stock);
        System.out.println("IOR " + ior);
        System.out.println("RMI " + rmiIor);
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
            if (line.equals("resetpeak")) {
                System.gc();
                for (java.lang.management.MemoryPoolMXBean p : java.lang.management.ManagementFactory.getMemoryPoolMXBeans()) {
                    p.resetPeakUsage();
                }
                System.out.println("RESET");
                System.out.flush();
            }
            if (line.equals("stats")) {
                long maxHeap = Runtime.getRuntime().maxMemory();
                String process = "heapPeak=" + heapPeak() + " cpu=" + cpuNanos() + " rss=" + rssBytes();
                if (stock) {
                    System.out.println("STATS maxHeap=" + maxHeap + " " + process);
                } else {
                    System.out.println("STATS maxHeap=" + maxHeap + " " + process + " " + refused() + " " + stats(server));
                }
                System.out.flush();
            }
        }
        Orbs.destroy(server);
        System.exit(0);
    }

    /** Exports an RMI-IIOP echo object and returns its IOR (stock: with GlassFish's delegates, as a stock server). */
    private static String exportRmi(ORB server, boolean stock) throws Exception {
        if (stock) {
            System.setProperty("javax.rmi.CORBA.UtilClass", "com.sun.corba.ee.impl.javax.rmi.CORBA.Util");
            System.setProperty("javax.rmi.CORBA.PortableRemoteObjectClass", "com.sun.corba.ee.impl.javax.rmi.PortableRemoteObject");
            System.setProperty("javax.rmi.CORBA.StubClass", "com.sun.corba.ee.impl.javax.rmi.CORBA.StubDelegateImpl");
        }
        org.irmi.orb.rmi.RemoteEchoImpl impl = new org.irmi.orb.rmi.RemoteEchoImpl();
        javax.rmi.PortableRemoteObject.exportObject(impl);
        javax.rmi.CORBA.Tie tie = javax.rmi.CORBA.Util.getTie(impl);
        org.omg.PortableServer.POA root = org.omg.PortableServer.POAHelper.narrow(server.resolve_initial_references("RootPOA"));
        return server.object_to_string(root.servant_to_reference((org.omg.PortableServer.Servant) tie));
    }

    private static long heapPeak() {
        long sum = 0;
        for (java.lang.management.MemoryPoolMXBean p : java.lang.management.ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == java.lang.management.MemoryType.HEAP && p.getPeakUsage() != null) {
                sum += p.getPeakUsage().getUsed();
            }
        }
        return sum;
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static long rssBytes() {
        try {
            for (String l : java.nio.file.Files.readAllLines(java.nio.file.Paths.get("/proc/self/status"))) {
                if (l.startsWith("VmRSS:")) {
                    return Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // not Linux
        }
        return -1;
    }

    private static String refused() {
        StringBuilder b = new StringBuilder("refused=" + org.irmi.orb.internal.rmi.ValueFilters.refusedCount());
        for (org.irmi.orb.internal.rmi.ValueRefusal k : org.irmi.orb.internal.rmi.ValueRefusal.values()) {
            b.append(" refused.").append(k.tag()).append('=').append(org.irmi.orb.internal.rmi.ValueFilters.refusedCount(k));
        }
        return b.toString();
    }

    private static String stats(ORB server) {
        TransportStats s = Orbs.transport(server).stats();
        return "held=" + s.inboundHeldBytes() + " limit=" + s.inboundLimitBytes() + " pauses=" + s.budgetPauses()
                + " closes=" + s.budgetCloses() + " oversize=" + s.oversizeRefused() + " open=" + s.openConnections() + " acceptFailures=" + s.acceptFailures()
                + " inFlight=" + s.requestsInFlight() + " waiting=" + s.requestsWaiting() + " requestsLimit=" + s.requestsLimit()
                + " refusedConnections=" + s.refusedConnections() + " shedNeverCompleted=" + s.shedNeverCompleted()
                + " shedStalled=" + s.shedStalled() + " shedIdle=" + s.shedIdle();
    }
}
