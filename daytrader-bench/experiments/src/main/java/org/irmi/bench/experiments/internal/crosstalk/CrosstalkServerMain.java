package org.irmi.bench.experiments.internal.crosstalk;

import java.util.concurrent.atomic.AtomicLong;

import org.irmi.bench.experiments.internal.corba.NodeServant;
import org.irmi.bench.experiments.internal.corba.Roles;
import org.omg.CORBA.ORB;

/**
 * The crosstalk server: serves {@code putBulk} (the large stream) and {@code putSmall} (the 2 KB
 * secondary streams) and answers each with the time from the client's stamp to dispatch. The
 * parent picks the ORB (plain JacORB or I-RMI with a weight in its SLA) with {@code -D} options.
 *
 * <p>Prints {@code STAT <wallMillis> <bulkCalls> <smallCalls>} every {@code statMillis}.
 */
public final class CrosstalkServerMain {

    private CrosstalkServerMain() {
    }

    public static void main(String[] args) throws Exception {
        long statMillis = Long.parseLong(args[0]);
        ORB orb = Roles.startOrb(new String[0]);
        AtomicLong bulk = new AtomicLong();
        AtomicLong small = new AtomicLong();
        Roles.serve(orb, new NodeServant() {
            @Override
            protected long put(String operation, long assembledNanos, byte[] data) {
                (operation.equals("putBulk") ? bulk : small).incrementAndGet();
                return assembledNanos;
            }
        });
        while (!Roles.stopping()) {
            Roles.report("STAT " + System.currentTimeMillis() + " " + bulk.get() + " " + small.get());
            Thread.sleep(statMillis);
        }
        Roles.exit(orb);
    }
}
