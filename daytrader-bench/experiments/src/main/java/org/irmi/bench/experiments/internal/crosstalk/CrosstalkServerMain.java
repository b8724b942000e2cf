package org.irmi.bench.experiments.internal.crosstalk;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

import org.irmi.bench.experiments.internal.corba.NodeServant;
import org.irmi.bench.experiments.internal.corba.Roles;
import org.irmi.orb.IrmiORB;
import org.omg.CORBA.ORB;
import org.omg.CORBA.Policy;
import org.omg.PortableServer.IdAssignmentPolicyValue;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

/**
 * The crosstalk server: serves {@code putBulk} (the large stream) and {@code putSmall} (the 2 KB
 * secondary streams). A {@code putBulk} is answered with the time its request took to assemble at
 * the IIOP level ({@link AssemblyClock}): plain JacORB's reader threads are watched by
 * {@link TimingServerSocketFactory} (which the parent sets for plain runs), I-RMI's selector
 * thread by its message assembly listener. The parent picks the ORB (plain JacORB or I-RMI with a
 * weight in its SLA) with {@code -D} options.
 *
 * <p>Prints {@code STAT <wallMillis> <bulkCalls> <smallCalls> <readDeferrals> <jitMillis>} every
 * {@code statMillis} (read deferrals: I-RMI's read pacing held a secondary stream back, 0 on plain;
 * JIT milliseconds: what this JVM's compilers have spent so far, which the warm-up gate reads).
 */
public final class CrosstalkServerMain {

    private CrosstalkServerMain() {
    }

    public static void main(String[] args) throws Exception {
        long statMillis = Long.parseLong(args[0]);
        ORB orb = Roles.startOrb(new String[0]);
        if (orb instanceof IrmiORB irmi) {
            irmi.hooks().setMessageAssemblyListener((connection, bytes, firstByteNanos, completeNanos) ->
                    AssemblyClock.record(bytes, completeNanos - firstByteNanos));
        }
        AtomicLong bulk = new AtomicLong();
        AtomicLong small = new AtomicLong();
        java.util.function.Supplier<NodeServant> servants = () -> new NodeServant() {
            @Override
            protected long put(String operation, long assembledNanos, byte[] data) {
                if (operation.equals("putBulk")) {
                    bulk.incrementAndGet();
                    return AssemblyClock.latestLargeNanos(data.length);
                }
                small.incrementAndGet();
                return assembledNanos;
            }
        };
        // Two objects with readable keys, so an SLA can weight the large stream by object key.
        POA root = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
        POA poa = root.create_POA("CrosstalkPOA", root.the_POAManager(),
                new Policy[] {root.create_id_assignment_policy(IdAssignmentPolicyValue.USER_ID)});
        poa.activate_object_with_id("bulk".getBytes(StandardCharsets.US_ASCII), servants.get());
        poa.activate_object_with_id("small".getBytes(StandardCharsets.US_ASCII), servants.get());
        root.the_POAManager().activate();
        Thread runner = new Thread(orb::run, "orb-run");
        runner.setDaemon(true);
        runner.start();
        Roles.report("SMALL " + orb.object_to_string(poa.id_to_reference("small".getBytes(StandardCharsets.US_ASCII))));
        Roles.report("IOR " + orb.object_to_string(poa.id_to_reference("bulk".getBytes(StandardCharsets.US_ASCII))));
        java.util.function.LongSupplier deferrals = orb instanceof IrmiORB irmi
                ? () -> irmi.transport().map(t -> t.stats().readDeferrals()).orElse(0L) : () -> 0L;
        while (!Roles.stopping()) {
            Roles.report("STAT " + System.currentTimeMillis() + " " + bulk.get() + " " + small.get() + " "
                    + deferrals.getAsLong() + " " + Roles.jitMillis());
            Thread.sleep(statMillis);
        }
        Roles.exit(orb);
    }
}
