package org.irmi.orb.internal;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The bounded hand-off between the selector thread and the dispatch workers.
 *
 * <p>Made cheap on purpose (the prototype lost about 15% to a blocking queue): offering is a
 * lock-free enqueue plus a size counter and wakes nobody; the selector calls {@link #signal()}
 * once per turn, which unparks a parked worker only if work is waiting. A worker that takes an
 * item while a backlog waits wakes one more worker, and spins briefly before parking, so under
 * load requests pass with few futex calls.
 *
 * <p>THREADING: {@link #offer} and {@link #signal} from the selector thread (or any thread);
 * workers are private.
 */
final class DispatchQueue<T> {

    private static final int SPINS_BEFORE_PARK = 32;
    /**
     * A worker that takes an item wakes a second worker only when at least this many more wait.
     * Handing a request to JacORB takes a few microseconds, so one awake worker drains a selector
     * turn's batch faster than a parked one wakes up; every extra wake-up is a context switch on
     * both sides. The selector's per-turn {@link #signal()} still wakes a parked worker whenever
     * work waits, so a worker held up inside JacORB never strands the queue.
     *
     * <p>Workers that run servants ({@code DirectDispatch}) may be held up for as long as a servant
     * blocks, so they wake a helper whenever anything waits ({@code wakeDepth} 1).
     */
    static final int HELPER_WAKE_DEPTH = 16;

    private final ConcurrentLinkedQueue<T> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private final int capacity;
    private final java.util.List<Worker> workers;
    private final Consumer<T> handler;
    private final int wakeDepth;
    private volatile boolean running = true;

    /**
     * @param wakeDepth a worker that takes an item wakes a parked one when at least this many more wait
     *                  ({@link #HELPER_WAKE_DEPTH} for quick hand-offs, 1 for workers that run servants)
     */
    DispatchQueue(String threadNamePrefix, int threads, int capacity, int wakeDepth, Consumer<T> handler) {
        this.capacity = capacity;
        this.wakeDepth = wakeDepth;
        this.handler = handler;
        this.workers = new java.util.ArrayList<>(threads);
        for (int i = 0; i < threads; i++) {
            workers.add(new Worker(threadNamePrefix + "-" + i));
        }
        for (Worker w : workers) {
            w.thread.start();
        }
    }

    /** Hands one item to the workers; false when the queue is full. Never blocks. */
    boolean offer(T item) {
        if (size.incrementAndGet() > capacity) {
            size.decrementAndGet();
            return false;
        }
        queue.offer(item);
        return true;
    }

    /** Wakes one parked worker if work is waiting (once per selector turn). */
    void signal() {
        if (size.get() > 0) {
            wakeOne();
        }
    }

    private void wakeOne() {
        for (Worker w : workers) {
            if (w.parked.get() && w.parked.compareAndSet(true, false)) {
                LockSupport.unpark(w.thread);
                return;
            }
        }
    }

    int depth() {
        return size.get();
    }

    /** Stops the workers after the items already queued; waits up to {@code timeoutMillis}. */
    void shutdown(long timeoutMillis) {
        running = false;
        for (Worker w : workers) {
            LockSupport.unpark(w.thread);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        for (Worker w : workers) {
            if (w.thread == Thread.currentThread()) {
                continue;
            }
            long left = deadline - System.nanoTime();
            if (left > 0) {
                try {
                    w.thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private T poll() {
        T t = queue.poll();
        if (t != null) {
            size.decrementAndGet();
        }
        return t;
    }

    private final class Worker implements Runnable {
        final AtomicBoolean parked = new AtomicBoolean();
        final Thread thread;

        Worker(String name) {
            thread = new Thread(this, name);
            thread.setDaemon(true);
        }

        @Override
        public void run() {
            while (true) {
                T t = poll();
                for (int i = 0; t == null && i < SPINS_BEFORE_PARK; i++) {
                    Thread.onSpinWait();
                    t = poll();
                }
                if (t == null) {
                    if (!running) {
                        return;
                    }
                    parked.set(true);
                    t = poll();
                    if (t == null) {
                        LockSupport.park(this);
                        parked.set(false);
                        continue;
                    }
                    parked.set(false);
                }
                if (size.get() >= wakeDepth) {
                    wakeOne(); // a backlog: let a second worker help
                }
                handler.accept(t);
            }
        }
    }
}
