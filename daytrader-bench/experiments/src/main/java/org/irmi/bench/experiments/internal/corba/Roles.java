package org.irmi.bench.experiments.internal.corba;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

/**
 * What every child JVM role shares: ORB start-up with the JVM's system properties (so the parent
 * chooses plain JacORB or I-RMI with {@code -D} options), servant activation, the {@code IOR}
 * handshake line, and stopping on a {@code stop} line from the parent (or the parent's death).
 */
public final class Roles {

    private static final CountDownLatch STOP = new CountDownLatch(1);
    /** Words the parent sent on stdin other than {@code stop} (e.g. {@code measure}). */
    private static final java.util.Set<String> SIGNALS = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private Roles() {
    }

    /** Starts an ORB configured by this JVM's system properties. */
    public static ORB startOrb(String[] args) {
        ORB orb = ORB.init(args, System.getProperties());
        listenForStop();
        return orb;
    }

    /** Activates the servant on the root POA, prints {@code IOR <ior>} and returns the IOR. */
    public static String serve(ORB orb, NodeServant servant) throws Exception {
        POA root = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
        root.the_POAManager().activate();
        org.omg.CORBA.Object reference = root.servant_to_reference(servant);
        String ior = orb.object_to_string(reference);
        Thread runner = new Thread(orb::run, "orb-run");
        runner.setDaemon(true);
        runner.start();
        System.out.println("IOR " + ior);
        System.out.flush();
        return ior;
    }

    /** @return a stub for the given IOR */
    public static BenchObject resolve(ORB orb, String ior) {
        return BenchObject.narrow(orb.string_to_object(ior));
    }

    /** Prints one line to the parent at once. */
    public static synchronized void report(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /** @return true once the parent asked this child to stop */
    public static boolean stopping() {
        return STOP.getCount() == 0;
    }

    /**
     * @return milliseconds this JVM's JIT compilers have spent compiling so far, or -1 where the JVM
     *     does not say (a warm-up gate reads its growth to tell when compilation has quietened)
     */
    public static long jitMillis() {
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
    }

    /** @return true once the parent sent a line holding just {@code word} (any word but {@code stop}) */
    public static boolean signalled(String word) {
        return SIGNALS.contains(word);
    }

    /** Blocks until the parent says stop (or goes away). */
    public static void awaitStop() throws InterruptedException {
        STOP.await();
    }

    /**
     * Starts watching stdin for the parent's {@code stop} line and its other signals (see
     * {@link #signalled}); done by {@link #startOrb} too.
     */
    public static void listenForStop() {
        Thread watcher = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.trim().equals("stop")) {
                        break;
                    }
                    SIGNALS.add(line.trim());
                }
            } catch (Exception ignored) {
                // parent gone: stop too
            }
            STOP.countDown();
        }, "parent-watch");
        watcher.setDaemon(true);
        watcher.start();
    }

    /** Ends the JVM after shutting the ORB down (bounded: the ORB may hang in a stuck call). */
    public static void exit(ORB orb) {
        Thread shutdown = new Thread(() -> {
            try {
                orb.shutdown(false);
            } catch (RuntimeException ignored) {
                // exiting anyway
            }
        });
        shutdown.setDaemon(true);
        shutdown.start();
        try {
            shutdown.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
