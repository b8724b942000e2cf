package org.irmi.bench.experiments.internal.crosstalk;

import java.util.Arrays;

import org.irmi.bench.experiments.internal.corba.BenchObject;
import org.irmi.bench.experiments.internal.corba.Roles;
import org.omg.CORBA.ORB;

/**
 * The crosstalk experiment's main stream: for each message size, {@code warmup} unmeasured then
 * {@code reps} measured {@code putBulk} calls, one at a time. Each reply carries the time the
 * server took to assemble that request at the IIOP level, from the read of its first byte to the
 * read of its last ({@link AssemblyClock}); the client's own marshalling is not in it.
 *
 * <p>Prints {@code RESULT <bytes> <medianNanos> <meanNanos> <p90Nanos>} per size, then {@code DONE}.
 *
 * <p>Warm-up: {@code warmup} rounds over every size, and more rounds until {@code warmupMillis}
 * have passed; with {@code gate}, more rounds still until the parent sends {@code measure} (it does
 * once the JIT compilers of the server and of this client have gone quiet, see
 * {@link org.irmi.bench.experiments.internal.JitQuiet}): the compilers share the server's one CPU, and a request measured while they
 * work measures them. Prints {@code WARM <elapsedMillis> <jitMillis>} about every 250 ms while
 * warming up.
 *
 * <p>Arguments: {@code <ior> <size,size,...> <reps> <warmup> [warmupMillis [gate]]}.
 */
public final class LargeStreamMain {

    private LargeStreamMain() {
    }

    public static void main(String[] args) throws Exception {
        ORB orb = Roles.startOrb(new String[0]);
        BenchObject server = Roles.resolve(orb, args[0]);
        int[] sizes = Arrays.stream(args[1].split(",")).mapToInt(Integer::parseInt).toArray();
        int reps = Integer.parseInt(args[2]);
        int warmup = Integer.parseInt(args[3]);
        long warmupNanos = args.length > 4 ? Long.parseLong(args[4]) * 1_000_000L : 0;
        boolean gate = args.length > 5 && args[5].equals("gate");
        long warmupStart = System.nanoTime();
        long lastReport = 0;
        for (int round = 0; (round < warmup || System.nanoTime() - warmupStart < warmupNanos
                || (gate && !Roles.signalled("measure"))) && !Roles.stopping(); round++) {
            for (int size : sizes) {
                server.put("putBulk", System.nanoTime(), new byte[size]);
                // After every request, not every round: over the link a round takes seconds, and the
                // parent's JIT gate must see fresh figures.
                long elapsedMillis = (System.nanoTime() - warmupStart) / 1_000_000;
                if (elapsedMillis - lastReport >= 250) {
                    lastReport = elapsedMillis;
                    Roles.report("WARM " + elapsedMillis + " " + Roles.jitMillis());
                }
            }
        }
        for (int size : sizes) {
            byte[] data = new byte[size];
            long[] nanos = new long[reps];
            for (int i = 0; i < reps && !Roles.stopping(); i++) {
                nanos[i] = server.put("putBulk", System.nanoTime(), data);
                if (nanos[i] < 0) {
                    throw new IllegalStateException("the server recorded no assembly time for a " + size
                            + "-byte request: its ORB's reader was not watched (see AssemblyClock)");
                }
            }
            Arrays.sort(nanos);
            long mean = (long) Arrays.stream(nanos).average().orElse(0);
            Roles.report("RESULT " + size + " " + nanos[reps / 2] + " " + mean + " " + nanos[Math.min(reps - 1, reps * 9 / 10)]);
        }
        Roles.report("DONE 0");
        Roles.exit(orb);
    }
}
