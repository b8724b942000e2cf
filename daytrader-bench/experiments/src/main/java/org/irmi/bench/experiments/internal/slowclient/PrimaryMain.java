package org.irmi.bench.experiments.internal.slowclient;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.irmi.bench.experiments.internal.corba.BenchObject;
import org.irmi.bench.experiments.internal.corba.NodeServant;
import org.irmi.bench.experiments.internal.corba.Roles;
import org.omg.CORBA.ORB;

/**
 * The primary server of the paper's Figure 3. Events pushed by the event source are queued; one
 * worker forwards them to the secondary; a client fetches a cached object. Its heap is capped by
 * the parent ({@code -Xmx}), so a queue that builds up turns into garbage collection pressure.
 *
 * <p>Prints {@code STAT <wallMillis> <in> <out> <fetches> <queued> <gcCount> <gcMillis> <heapMb>
 * <forwardErrors> <dropped>}
 * every {@code statMillis}: cumulative counters, read by the parent.
 *
 * <p>Arguments: {@code <secondaryIor> <queueCapacity> <objectBytes> <statMillis>}.
 */
public final class PrimaryMain {

    private PrimaryMain() {
    }

    public static void main(String[] args) throws Exception {
        String secondaryIor = args[0];
        int queueCapacity = Integer.parseInt(args[1]);
        int objectBytes = Integer.parseInt(args[2]);
        long statMillis = Long.parseLong(args[3]);

        ORB orb = Roles.startOrb(new String[0]);
        BenchObject secondary = Roles.resolve(orb, secondaryIor);
        BlockingQueue<byte[]> queue = new ArrayBlockingQueue<>(queueCapacity);
        AtomicLong in = new AtomicLong();
        AtomicLong out = new AtomicLong();
        AtomicLong fetches = new AtomicLong();
        AtomicLong forwardErrors = new AtomicLong();
        AtomicLong dropped = new AtomicLong();
        byte[] cached = new byte[objectBytes];
        for (int i = 0; i < cached.length; i++) {
            cached[i] = (byte) i;
        }

        Roles.serve(orb, new NodeServant() {
            @Override
            protected void push(long stampNanos, byte[] data) {
                in.incrementAndGet();
                // A full queue drops the event (a lossy event feed), so the source keeps its
                // rate and the queue's memory stays capped: the pressure is a heap nearly full
                // of queued events, not an out-of-memory error.
                if (!queue.offer(data)) {
                    dropped.incrementAndGet();
                }
            }

            @Override
            protected byte[] fetch() {
                fetches.incrementAndGet();
                return cached;
            }
        });

        Thread worker = new Thread(() -> {
            while (!Roles.stopping()) {
                try {
                    byte[] event = queue.poll(100, TimeUnit.MILLISECONDS);
                    if (event == null) {
                        continue;
                    }
                    secondary.forward(System.nanoTime(), event);
                    out.incrementAndGet();
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    // A rejected or failed forward is the application's to handle; count it and go on.
                    forwardErrors.incrementAndGet();
                    out.incrementAndGet();
                }
            }
        }, "forward-worker");
        worker.setDaemon(true);
        worker.start();

        while (!Roles.stopping()) {
            Roles.report("STAT " + System.currentTimeMillis() + " " + in.get() + " " + out.get() + " "
                    + fetches.get() + " " + queue.size() + " " + JvmStats.gcCount() + " " + JvmStats.gcMillis()
                    + " " + JvmStats.heapUsedMb() + " " + forwardErrors.get() + " " + dropped.get());
            Thread.sleep(statMillis);
        }
        Roles.exit(orb);
    }
}
