package org.irmi.bench.experiments.internal.slowclient;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicLong;

import org.irmi.bench.experiments.internal.corba.NodeServant;
import org.irmi.bench.experiments.internal.corba.Roles;
import org.omg.CORBA.ORB;

/**
 * The secondary server of the paper's Figure 3: it processes each forwarded event with a fixed
 * amount of CPU time (measured on its own thread), so CPU stress on its core slows it down
 * in proportion to the share of the core it still gets.
 *
 * <p>Prints {@code STAT <wallMillis> <processed>} every {@code statMillis}.
 *
 * <p>Arguments: {@code <cpuMicrosPerEvent> <statMillis>}.
 */
public final class SecondaryMain {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private SecondaryMain() {
    }

    public static void main(String[] args) throws Exception {
        long cpuNanosPerEvent = Long.parseLong(args[0]) * 1000;
        long statMillis = Long.parseLong(args[1]);
        ORB orb = Roles.startOrb(new String[0]);
        AtomicLong processed = new AtomicLong();
        AtomicLong checksum = new AtomicLong();
        Roles.serve(orb, new NodeServant() {
            @Override
            protected void forward(long stampNanos, byte[] data) {
                checksum.addAndGet(process(data, cpuNanosPerEvent));
                processed.incrementAndGet();
            }
        });
        while (!Roles.stopping()) {
            Roles.report("STAT " + System.currentTimeMillis() + " " + processed.get());
            Thread.sleep(statMillis);
        }
        Roles.report("RESULT checksum " + checksum.get());
        Roles.exit(orb);
    }

    /** Scans the event repeatedly until this thread has used {@code cpuNanos} of CPU time. */
    static long process(byte[] data, long cpuNanos) {
        long start = THREADS.getCurrentThreadCpuTime();
        long sum = 0;
        do {
            for (int i = 0; i < data.length; i += 64) {
                sum = sum * 31 + data[i];
            }
        } while (THREADS.getCurrentThreadCpuTime() - start < cpuNanos);
        return sum;
    }
}
