package org.irmi.orb.internal;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * The bounded hand-off between the selector thread and the dispatch workers.
 *
 * <p>Made cheap on purpose (the prototype lost about 15% to a blocking queue): offering is a
 * lock-free enqueue plus a size counter and wakes nobody; the selector calls {@link #signal()}
 * once per turn, which unparks a parked worker only if work is waiting. A worker that takes an
 * item while a backlog waits wakes one more worker, and spins briefly before parking, so under
 * load requests pass with few futex calls.
 *
 * <p>Workers that run servants ({@code DirectDispatch}) need another rule, because a worker may be
 * held up for as long as its servant blocks. They keep as many workers <em>running</em> as the
 * in-flight limit says keeps the cores busy ({@code runningTarget}, from {@code CoreLimit}, at least
 * the cores): a worker counts as running while it is awake and not held up, where held up means
 * in its handler for more than {@link #HELD_UP_NANOS}. A worker that takes an item, and the
 * selector's per-turn {@link #signal()}, wake a parked worker when items wait and fewer than that
 * many run. So CPU-bound servants run on about as many workers as there are cores, one after
 * another, instead of on every worker at once, each woken for one request; and servants that block
 * get more workers as soon as they are held up ({@link #needsWatch()} keeps the selector's wait
 * short enough to notice).
 *
 * <p>An item offered with {@link #offerFirst} goes before every item offered plainly, and wakes a
 * parked worker at once, whatever the running target says: the request of a client that waits for
 * it alone, while the slots are taken by the requests of clients that pipeline (see
 * {@code RequestAdmission}). Without it, that request queued behind theirs and waited for a worker to
 * finish one of them.
 *
 * <p>THREADING: {@link #offer}, {@link #offerFirst} and {@link #signal} from the selector thread (or
 * any thread); workers are private.
 */
final class DispatchQueue<T> {

    private static final int SPINS_BEFORE_PARK = 32;
    /**
     * A worker that takes an item wakes a second worker only when at least this many more wait.
     * Handing a request to JacORB takes a few microseconds, so one awake worker drains a selector
     * turn's batch faster than a parked one wakes up; every extra wake-up is a context switch on
     * both sides. The selector's per-turn {@link #signal()} still wakes a parked worker whenever
     * work waits, so a worker held up inside JacORB never strands the queue.
     */
    static final int HELPER_WAKE_DEPTH = 16;
    /**
     * A worker that runs servants and has been in its handler this long is held up (blocked, or
     * preempted), and no longer counts as running. An echo's servant and reply take 20 to 40 us of CPU.
     */
    static final long HELD_UP_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final ConcurrentLinkedQueue<T> queue = new ConcurrentLinkedQueue<>();
    /** Items offered with {@link #offerFirst}: taken before those of {@link #queue}. */
    private final ConcurrentLinkedQueue<T> first = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private final int capacity;
    private final java.util.List<Worker> workers;
    private final Consumer<T> handler;
    /** Null for quick hand-offs; for workers that run servants, how many should run. */
    private final IntSupplier runningTarget;
    private volatile boolean running = true;

    /**
     * @param runningTarget null for workers that hand items on quickly ({@link #HELPER_WAKE_DEPTH});
     *                      for workers that run servants, how many of them should be running
     */
    DispatchQueue(String threadNamePrefix, int threads, int capacity, IntSupplier runningTarget, Consumer<T> handler) {
        this.capacity = capacity;
        this.runningTarget = runningTarget;
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
        if (!takeRoom()) {
            return false;
        }
        queue.offer(item);
        return true;
    }

    /** Counts one more item if the capacity allows it. */
    private boolean takeRoom() {
        if (size.incrementAndGet() > capacity) {
            size.decrementAndGet();
            return false;
        }
        return true;
    }

    /**
     * Hands one item to the workers ahead of the items offered with {@link #offer}, and wakes a parked
     * worker for it now; false when the queue is full. Never blocks.
     */
    boolean offerFirst(T item) {
        if (!takeRoom()) {
            return false;
        }
        first.offer(item);
        wakeOne();
        return true;
    }

    /** Wakes one parked worker if work is waiting and, for servant workers, too few run (once per selector turn). */
    void signal() {
        if (size.get() > 0 && (runningTarget == null || tooFewRunning())) {
            wakeOne();
        }
    }

    /**
     * True while items wait for workers that run servants: the selector then waits at most a
     * millisecond per turn, so that {@link #signal()} notices workers held up in their servants.
     */
    boolean needsWatch() {
        return runningTarget != null && size.get() > 0;
    }

    private boolean tooFewRunning() {
        int target = runningTarget.getAsInt();
        long now = System.nanoTime();
        int n = 0;
        for (Worker w : workers) {
            if (!w.parked.get()) {
                long since = w.busySince;
                if (since == 0 || now - since < HELD_UP_NANOS) {
                    if (++n >= target) {
                        return false;
                    }
                }
            }
        }
        return true;
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
        T t = first.poll();
        if (t == null) {
            t = queue.poll();
        }
        if (t != null) {
            size.decrementAndGet();
        }
        return t;
    }

    private final class Worker implements Runnable {
        final AtomicBoolean parked = new AtomicBoolean();
        final Thread thread;
        /** System.nanoTime() when its handler started the current item, 0 between items (or 1 if it was 0). */
        volatile long busySince;

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
                if (runningTarget == null ? size.get() >= HELPER_WAKE_DEPTH : size.get() > 0 && tooFewRunning()) {
                    wakeOne(); // let another worker help
                }
                long now = System.nanoTime();
                busySince = now == 0 ? 1 : now;
                try {
                    handler.accept(t);
                } finally {
                    busySince = 0;
                }
            }
        }
    }
}
