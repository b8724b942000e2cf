package org.irmi.bench.experiments.internal.slowclient;

import org.irmi.bench.experiments.internal.corba.Roles;

/**
 * The CPU stress of the paper ("the stress utility to run 8 CPU intensive threads"): N busy
 * threads. The parent pins this JVM to the secondary's core with taskset, so it slows the
 * secondary and nothing else.
 *
 * <p>Arguments: {@code <threads>}.
 */
public final class BurnerMain {

    private static volatile long sink;

    private BurnerMain() {
    }

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        Roles.listenForStop();
        for (int t = 0; t < threads; t++) {
            Thread burner = new Thread(() -> {
                long x = 1;
                while (!Roles.stopping()) {
                    for (int i = 0; i < 1_000_000; i++) {
                        x = x * 6364136223846793005L + 1442695040888963407L;
                    }
                    sink = x;
                }
            }, "burn-" + t);
            burner.setDaemon(true);
            burner.start();
        }
        Roles.report("IOR burning");
        Roles.awaitStop();
        Runtime.getRuntime().halt(0);
    }
}
