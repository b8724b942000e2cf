package org.irmi.bench.experiments.internal.crosstalk;

import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

import org.irmi.bench.experiments.internal.corba.BenchObject;
import org.irmi.bench.experiments.internal.corba.Roles;
import org.omg.CORBA.ORB;

/**
 * The crosstalk experiment's secondary streams: N loops of calls of a fixed size (2 KB in the
 * paper), each on its own ORB so each has its own connection, as N separate clients would. With
 * {@code oneway} each loop sends {@code postSmall} messages as fast as TCP takes them (a stream of
 * messages); with {@code twoway}, closed loops of {@code putSmall} calls, one in flight each.
 *
 * <p>Prints {@code IOR ready} once every stream has made a call, then
 * {@code STAT <wallMillis> <calls>} every {@code statMillis}.
 *
 * <p>Arguments: {@code <ior> <streams> <bytes> <statMillis> [oneway|twoway]}.
 */
public final class SmallStreamsMain {

    private SmallStreamsMain() {
    }

    public static void main(String[] args) throws Exception {
        int streams = Integer.parseInt(args[1]);
        int bytes = Integer.parseInt(args[2]);
        long statMillis = Long.parseLong(args[3]);
        boolean oneway = args.length > 4 && args[4].equals("oneway");
        AtomicLong calls = new AtomicLong();
        Roles.listenForStop();
        for (int s = 0; s < streams; s++) {
            // One ORB per stream: JacORB shares one connection per target within an ORB.
            ORB orb = ORB.init(new String[0], (Properties) System.getProperties().clone());
            BenchObject server = Roles.resolve(orb, args[0]);
            server.put("putSmall", System.nanoTime(), new byte[bytes]);
            calls.incrementAndGet();
            Thread loop = new Thread(() -> {
                byte[] data = new byte[bytes];
                while (!Roles.stopping()) {
                    try {
                        if (oneway) {
                            server.post("postSmall", System.nanoTime(), data);
                        } else {
                            server.put("putSmall", System.nanoTime(), data);
                        }
                        calls.incrementAndGet();
                    } catch (RuntimeException e) {
                        try {
                            Thread.sleep(10);
                        } catch (InterruptedException interrupted) {
                            return;
                        }
                    }
                }
            }, "stream-" + s);
            loop.setDaemon(true);
            loop.start();
        }
        Roles.report("IOR ready");
        while (!Roles.stopping()) {
            Roles.report("STAT " + System.currentTimeMillis() + " " + calls.get());
            Thread.sleep(statMillis);
        }
        Runtime.getRuntime().halt(0);
    }
}
