package org.irmi.bench.experiments.internal.slowclient;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicLong;

import org.irmi.bench.experiments.internal.corba.Roles;
import org.omg.CORBA.ORB;
import org.omg.CosNaming.NameComponent;
import org.omg.CosNaming.NamingContext;
import org.omg.CosNaming.NamingContextExt;
import org.omg.CosNaming.NamingContextExtHelper;
import org.omg.CosNaming.NamingContextHelper;
import org.omg.CosNaming.NamingContextPackage.AlreadyBound;

/**
 * The secondary server of the paper's Figure 3: it processes each forwarded event with a fixed
 * amount of CPU time (measured on its own thread), so CPU stress on its core slows it down
 * in proportion to the share of the core it still gets.
 *
 * <p>Prints {@code STAT <wallMillis> <processed>} every {@code statMillis}.
 *
 * <p>Arguments: {@code <cpuMicrosPerEvent> <statMillis> [<nameServiceUrl> <name>]}: with the last two, it
 * binds itself in that Naming Service under that name (a replica, for the reroute trial).
 */
public final class SecondaryMain {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private SecondaryMain() {
    }

    /** The secondary's servant. */
    public static final class Node implements SecondaryNode {
        final AtomicLong processed = new AtomicLong();
        final AtomicLong checksum = new AtomicLong();
        private final long cpuNanosPerEvent;

        Node(long cpuNanosPerEvent) {
            this.cpuNanosPerEvent = cpuNanosPerEvent;
        }

        @Override
        public long forward(long stampNanos, byte[] event) {
            checksum.addAndGet(process(event, cpuNanosPerEvent));
            return processed.incrementAndGet();
        }
    }

    public static void main(String[] args) throws Exception {
        long cpuNanosPerEvent = Long.parseLong(args[0]) * 1000;
        long statMillis = Long.parseLong(args[1]);
        ORB orb = RmiRole.startOrb();
        Node node = new Node(cpuNanosPerEvent);
        String ior = RmiRole.serve(orb, node);
        if (args.length >= 4) {
            bind(orb, args[2], args[3], ior);
        }
        while (!Roles.stopping()) {
            Roles.report("STAT " + System.currentTimeMillis() + " " + node.processed.get());
            Thread.sleep(statMillis);
        }
        Roles.report("RESULT checksum " + node.checksum.get());
        Roles.exit(orb);
    }

    /** Binds {@code ior} under {@code name} ("a/b.kind"), creating the contexts on the way. */
    static void bind(ORB orb, String nameServiceUrl, String name, String ior) throws Exception {
        NamingContextExt root = NamingContextExtHelper.narrow(orb.string_to_object(nameServiceUrl));
        NameComponent[] path = root.to_name(name);
        NamingContext context = root;
        for (int i = 0; i < path.length - 1; i++) {
            NameComponent[] step = {path[i]};
            try {
                context = context.bind_new_context(step);
            } catch (AlreadyBound e) {
                context = NamingContextHelper.narrow(context.resolve(step));
            }
        }
        context.rebind(new NameComponent[] {path[path.length - 1]}, orb.string_to_object(ior));
        Roles.report("BOUND " + name);
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
