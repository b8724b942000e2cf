package org.irmi.it;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The primary of the paper's Fig. 3, as the slow-client and modules tests run it: {@code publish}
 * queues each event (the "in" side of the causal pair publish -&gt; deliver, seen by the ORB's own
 * server hook), and workers deliver queued events to a sink (the "out" side, seen by the ORB's
 * client hook). An event source publishes a 64 KB event every 5 ms, numbered in its first 8 bytes
 * ({@link #sequence}) so that a test can follow one event from the decision on it to the sink.
 */
final class PrimaryImpl implements Primary {
    static final int EVENT_BYTES = 64 * 1024;
    static final long EVENT_PERIOD_NANOS = 5_000_000L;

    final LinkedBlockingQueue<byte[]> queue = new LinkedBlockingQueue<>();
    final AtomicLong maxQueue = new AtomicLong();
    /** Events received by {@code publish}: a test's phases last so many events, not so many seconds. */
    final AtomicLong published = new AtomicLong();
    /** Exceptions the workers saw from {@code deliver}. */
    final AtomicLong failures = new AtomicLong();
    /** {@code deliver} calls that returned normally (whether or not they reached the sink). */
    final AtomicLong returned = new AtomicLong();
    private final java.util.List<Thread> workers = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** The sequence number of the event the current worker thread is delivering. */
    private static final ThreadLocal<Long> DELIVERING = ThreadLocal.withInitial(() -> 0L);

    @Override
    public void publish(byte[] event) {
        queue.add(event);
        published.incrementAndGet();
        maxQueue.accumulateAndGet(queue.size(), Math::max);
    }

    /** Starts {@code count} daemon workers that deliver queued events to {@code sink} while {@code running}. */
    void startWorkers(Trade sink, AtomicBoolean running, int count) {
        for (int w = 0; w < count; w++) {
            Thread t = new Thread(() -> {
                while (running.get()) {
                    try {
                        byte[] e = queue.poll(100, TimeUnit.MILLISECONDS);
                        if (e != null) {
                            DELIVERING.set(sequence(e));
                            sink.deliver(e);
                            returned.incrementAndGet();
                        }
                    } catch (InterruptedException ie) {
                        return;
                    } catch (Exception ex) {
                        failures.incrementAndGet();
                    }
                }
            }, "primary-worker-" + w);
            t.setDaemon(true);
            workers.add(t);
            t.start();
        }
    }

    /**
     * Waits for the workers to stop (after {@code running} went false): each finishes the call it is
     * in, a parked or paced one included.
     *
     * @return whether they all stopped within {@code timeoutMillis}
     */
    boolean awaitWorkers(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        for (Thread t : workers) {
            t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000L));
            if (t.isAlive()) {
                return false;
            }
        }
        return true;
    }

    /**
     * @return the sequence number of the event the calling worker thread is delivering (0 outside a
     *     delivery), for a decision listener, which runs on the thread of the call it decides
     */
    static long delivering() {
        return DELIVERING.get();
    }

    /** @return the sequence number the source wrote into {@code event} (0 for an event it did not number). */
    static long sequence(byte[] event) {
        return event.length < Long.BYTES ? 0 : java.nio.ByteBuffer.wrap(event).getLong(0);
    }

    /** Starts the event source: one {@link #EVENT_BYTES} event to {@code target} every 5 ms while {@code running}. */
    static void startSource(Primary target, AtomicBoolean running) {
        Thread source = new Thread(() -> {
            byte[] event = new byte[EVENT_BYTES];
            java.nio.ByteBuffer numbered = java.nio.ByteBuffer.wrap(event);
            long sequence = 0;
            long next = System.nanoTime();
            while (running.get()) {
                numbered.putLong(0, ++sequence); // publish marshals a copy before it returns
                try {
                    target.publish(event);
                } catch (Exception e) {
                    return;
                }
                next += EVENT_PERIOD_NANOS;
                LockSupport.parkNanos(next - System.nanoTime());
            }
        }, "event-source");
        source.setDaemon(true);
        source.start();
    }
}
