package org.irmi.monitors;

import java.util.function.LongSupplier;

import io.micrometer.core.instrument.binder.MeterBinder;
import org.irmi.monitors.internal.WindowedLocalResourceMonitor;
import org.irmi.sla.WindowConfig;

/**
 * The local node's resources (the slow-client point's second window, and the poison point's
 * resource side): process CPU over the window, system load, GC count and GC time per window (from GC
 * notifications), heap used and heap after GC, live threads, and the lengths of the ORB's hand-off
 * queues.
 *
 * <p>CPU is sampled: each {@link #sample()} (and each {@link #snapshot()}) adds the process CPU time
 * used since the previous sample to a window. Call {@link #sample()} at least once per bucket (e.g.
 * from the ORB's timer) so CPU lands in the right bucket; GC is pushed by notifications and needs no
 * sampling.
 *
 * <p>THREAD-SAFE. {@link #onGarbageCollection(long, long)} runs on the JMX notification thread.
 */
public interface LocalResourceMonitor extends AutoCloseable {

    /**
     * Subscribes to this JVM's GC notifications ({@code com.sun.management.GarbageCollectionNotificationInfo}).
     * Idempotent.
     *
     * @return this monitor
     */
    LocalResourceMonitor start();

    /** Unsubscribes from GC notifications. Idempotent. */
    @Override
    void close();

    /**
     * Records one garbage collection. Called by the GC notification listener; may be called directly
     * by other sources (and by tests).
     *
     * @param durationNanos     how long the collection took, nanoseconds
     * @param heapAfterGcBytes  heap in use right after it, bytes (negative: unknown, keep the last value)
     */
    void onGarbageCollection(long durationNanos, long heapAfterGcBytes);

    /**
     * Registers a hand-off queue whose length is summed into {@link LocalResourceSnapshot#handOffQueueLength()}.
     * Replaces an earlier queue of the same name. The supplier is read only at snapshot time; it must
     * be THREAD-SAFE and cheap. Keep names few (they are metric tags).
     *
     * @param name   queue name, e.g. {@code "dispatch"}
     * @param length current length
     */
    void registerHandOffQueue(String name, LongSupplier length);

    /**
     * Removes a hand-off queue.
     *
     * @param name its name
     */
    void unregisterHandOffQueue(String name);

    /**
     * @param name a registered queue
     * @return its length now, or -1 if no such queue
     */
    long handOffQueueLength(String name);

    /** Adds the CPU time used since the previous sample to the CPU window. */
    void sample();

    /** @return the resources now (takes a CPU sample first) */
    LocalResourceSnapshot snapshot();

    /**
     * Gauges {@code irmi.resources.*} (no tags, except {@code queue} on the hand-off queue gauge).
     * Bind once; queues registered later are not added.
     *
     * @return the binder
     */
    MeterBinder metrics();

    /**
     * A monitor on this JVM. Call {@link #start()} to receive GC notifications.
     *
     * @param config window of CPU and GC figures
     * @param clock  time source
     * @return the monitor
     */
    static LocalResourceMonitor of(WindowConfig config, Clock clock) {
        return new WindowedLocalResourceMonitor(config, clock, ResourceProbe.jvm());
    }

    /**
     * A monitor reading the given probe.
     *
     * @param config window of CPU and GC figures
     * @param clock  time source
     * @param probe  resource readings
     * @return the monitor
     */
    static LocalResourceMonitor of(WindowConfig config, Clock clock, ResourceProbe probe) {
        return new WindowedLocalResourceMonitor(config, clock, probe);
    }
}
