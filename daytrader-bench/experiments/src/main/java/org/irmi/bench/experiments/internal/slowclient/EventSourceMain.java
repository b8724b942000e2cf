package org.irmi.bench.experiments.internal.slowclient;

import java.util.concurrent.locks.LockSupport;

import org.irmi.bench.experiments.internal.corba.Roles;
import org.omg.CORBA.ORB;

/**
 * The external event source of the paper's Figure 3: one event of {@code eventBytes} every
 * {@code periodMillis} to the primary, over RMI-IIOP. A push that fails (the primary ran out of
 * heap while unmarshalling it, say) is counted and the event is lost, as it would be for a source
 * that does not retry. When the primary's calls slow down the source falls behind; it catches up at
 * most one second's worth of events.
 *
 * <p>Prints {@code STAT <wallMillis> <sent> <failed>} every {@code statMillis}.
 *
 * <p>Arguments: {@code <primaryIor> <eventBytes> <periodMillis> <statMillis>}.
 */
public final class EventSourceMain {

    private EventSourceMain() {
    }

    public static void main(String[] args) throws Exception {
        ORB orb = RmiRole.startOrb();
        PrimaryNode primary = RmiRole.connect(orb, args[0], PrimaryNode.class);
        int eventBytes = Integer.parseInt(args[1]);
        long periodNanos = Long.parseLong(args[2]) * 1_000_000;
        long statNanos = Long.parseLong(args[3]) * 1_000_000;
        long sent = 0;
        long failed = 0;
        long next = System.nanoTime();
        long nextStat = next;
        while (!Roles.stopping()) {
            long now = System.nanoTime();
            if (now >= nextStat) {
                Roles.report("STAT " + System.currentTimeMillis() + " " + sent + " " + failed);
                nextStat = now + statNanos;
            }
            if (now < next) {
                LockSupport.parkNanos(next - now);
                continue;
            }
            // A fresh event each time, as a real source would produce.
            byte[] event = new byte[eventBytes];
            event[0] = (byte) (sent + failed);
            try {
                primary.push(now, event);
                sent++;
            } catch (java.rmi.RemoteException | RuntimeException e) {
                failed++;
            }
            next += periodNanos;
            if (next < System.nanoTime() - 1_000_000_000L) {
                next = System.nanoTime();
            }
        }
        Roles.exit(orb);
    }
}
