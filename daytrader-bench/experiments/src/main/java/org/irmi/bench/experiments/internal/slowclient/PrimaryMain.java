package org.irmi.bench.experiments.internal.slowclient;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.irmi.bench.experiments.internal.corba.Roles;
import org.omg.CORBA.ORB;

/**
 * The primary server of the paper's Figure 3. Events pushed by the event source are queued; one
 * worker forwards them to the secondary; a client fetches a cached object. The queue has no cap
 * of its own: as in the paper, its only bound is the heap ({@code -Xmx120m}, set by the parent),
 * so a queue that builds up turns into garbage collection pressure and, once the heap is
 * exhausted, into {@code OutOfMemoryError}s. Such an error fails the call it happens in (the
 * source sees a failed push and counts it); this server catches it on its own threads and keeps
 * serving.
 *
 * <p>Prints {@code STAT <wallMillis> <in> <out> <fetches> <queued> <gcCount> <gcMillis> <heapMb>
 * <forwardErrors> <eliminated> <workerOom>} every {@code statMillis}: cumulative counters (queued
 * and heap are gauges), read by the parent. {@code eliminated} counts forwards whose reply was
 * the SLA's short-circuit result (0) instead of the secondary's count.
 *
 * <p>Arguments: {@code <secondaryIor> <objectBytes> <statMillis>}.
 */
public final class PrimaryMain {

    private PrimaryMain() {
    }

    /** The application's servant: push queues, fetch returns the cached object. */
    public static final class Node implements PrimaryNode {
        final BlockingQueue<byte[]> queue = new LinkedBlockingQueue<>();
        final AtomicLong in = new AtomicLong();
        final AtomicLong fetches = new AtomicLong();
        private final byte[] cached;

        Node(byte[] cached) {
            this.cached = cached;
        }

        @Override
        public void push(long stampNanos, byte[] event) {
            queue.add(event);
            in.incrementAndGet();
        }

        @Override
        public byte[] fetch() {
            fetches.incrementAndGet();
            return cached;
        }
    }

    public static void main(String[] args) throws Exception {
        String secondaryIor = args[0];
        int objectBytes = Integer.parseInt(args[1]);
        long statMillis = Long.parseLong(args[2]);

        ORB orb = RmiRole.startOrb();
        SecondaryNode secondary = RmiRole.connect(orb, secondaryIor, SecondaryNode.class);
        byte[] cached = new byte[objectBytes];
        for (int i = 0; i < cached.length; i++) {
            cached[i] = (byte) i;
        }
        Node node = new Node(cached);
        AtomicLong out = new AtomicLong();
        AtomicLong forwardErrors = new AtomicLong();
        AtomicLong eliminated = new AtomicLong();
        AtomicLong workerOom = new AtomicLong();
        RmiRole.serve(orb, node);

        Thread worker = new Thread(() -> {
            while (!Roles.stopping()) {
                byte[] event;
                try {
                    event = node.queue.poll(100, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    return;
                }
                if (event == null) {
                    continue;
                }
                try {
                    if (secondary.forward(System.nanoTime(), event) == 0) {
                        eliminated.incrementAndGet();
                    }
                } catch (java.rmi.RemoteException | RuntimeException e) {
                    // A rejected or failed forward is the application's to handle; count it and go on.
                    forwardErrors.incrementAndGet();
                } catch (OutOfMemoryError e) {
                    // Marshalling the event needed memory the queue holds: this event is lost, the worker goes on.
                    workerOom.incrementAndGet();
                }
                out.incrementAndGet();
            }
        }, "forward-worker");
        worker.setDaemon(true);
        worker.start();

        while (!Roles.stopping()) {
            try {
                Roles.report("STAT " + System.currentTimeMillis() + " " + node.in.get() + " " + out.get() + " "
                        + node.fetches.get() + " " + node.queue.size() + " " + JvmStats.gcCount() + " "
                        + JvmStats.gcMillis() + " " + JvmStats.heapUsedMb() + " " + forwardErrors.get() + " "
                        + eliminated.get() + " " + workerOom.get());
            } catch (OutOfMemoryError e) {
                // an exhausted heap may refuse even this line; the next one will do
            }
            Thread.sleep(statMillis);
        }
        Roles.exit(orb);
    }
}
