package org.irmi.bench.experiments.internal.slowclient;

import java.util.concurrent.locks.LockSupport;

import org.irmi.bench.experiments.internal.corba.Roles;
import org.omg.CORBA.ORB;

/**
 * The external client of the paper's Figure 3: calls the primary for its cached object over
 * RMI-IIOP, one call per period, timing each round trip.
 *
 * <p>Prints {@code STAT <wallMillis> <calls> <rttMicrosSum> <errors>} every {@code statMillis}
 * (cumulative), so the parent can average any phase.
 *
 * <p>Arguments: {@code <primaryIor> <statMillis> <periodMillis>} (period 0: closed loop without think time).
 */
public final class FetchClientMain {

    private FetchClientMain() {
    }

    public static void main(String[] args) throws Exception {
        ORB orb = RmiRole.startOrb();
        PrimaryNode primary = RmiRole.connect(orb, args[0], PrimaryNode.class);
        long statNanos = Long.parseLong(args[1]) * 1_000_000;
        long periodNanos = Long.parseLong(args[2]) * 1_000_000;
        long nextCall = System.nanoTime();
        long calls = 0;
        long rttMicros = 0;
        long errors = 0;
        long nextStat = System.nanoTime();
        long bytes = 0;
        while (!Roles.stopping()) {
            long now = System.nanoTime();
            if (now < nextCall) {
                LockSupport.parkNanos(Math.min(nextCall - now, statNanos));
                continue;
            }
            // Paced: one call per period, or back to back when a call took longer than that.
            nextCall = Math.max(nextCall + periodNanos, now);
            long start = System.nanoTime();
            if (start >= nextStat) {
                Roles.report("STAT " + System.currentTimeMillis() + " " + calls + " " + rttMicros + " " + errors);
                nextStat = start + statNanos;
            }
            try {
                bytes += primary.fetch().length;
                calls++;
                rttMicros += (System.nanoTime() - start) / 1000;
            } catch (java.rmi.RemoteException | RuntimeException e) {
                errors++;
                Thread.sleep(10);
            }
        }
        Roles.report("RESULT bytes " + bytes);
        Roles.exit(orb);
    }
}
