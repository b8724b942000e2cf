package org.irmi.monitors.internal;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.irmi.monitors.Clock;
import org.irmi.monitors.LocalResourceMonitor;
import org.irmi.monitors.LocalResourceSnapshot;
import org.irmi.monitors.ResourceProbe;
import org.irmi.monitors.SlidingWindow;
import org.irmi.sla.WindowConfig;
import org.irmi.monitors.WindowSnapshot;

/**
 * {@link LocalResourceMonitor} with two {@link SlidingWindow}s: CPU nanoseconds per sample and GC
 * durations per collection.
 *
 * <pre>
 *   processCpuCores = (CPU nanos added in the window) / (covered nanos)
 *   a sample after a gap longer than the covered span adds only that span's share of the CPU used
 *   gcTimeFraction  = (GC nanos in the window) / (covered nanos)
 * </pre>
 *
 * <p>THREAD-SAFE: the CPU sampler's last reading is guarded by {@code this}; the windows are
 * thread-safe; GC notifications arrive on the JMX notification thread.
 */
public final class WindowedLocalResourceMonitor implements LocalResourceMonitor {

    private final ResourceProbe probe;
    private final SlidingWindow cpuWindow;
    private final SlidingWindow gcWindow;
    private final Map<String, LongSupplier> queues = new ConcurrentHashMap<>();
    private final List<NotificationEmitter> subscribed = new ArrayList<>();
    private final NotificationListener gcListener = this::onNotification;
    private final Set<String> heapPools = ConcurrentHashMap.newKeySet(); // read on the JMX notification thread
    private volatile long heapAfterGcBytes;
    private final Clock clock;
    private final long windowNanos;
    private final long bucketNanos;
    private long lastCpuNanos; // guarded by this
    private long lastSampleNanos; // guarded by this

    /**
     * @param config window shape
     * @param clock  time source
     * @param probe  resource readings
     */
    public WindowedLocalResourceMonitor(WindowConfig config, Clock clock, ResourceProbe probe) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(clock, "clock");
        this.probe = Objects.requireNonNull(probe, "probe");
        this.cpuWindow = SlidingWindow.of(config, clock);
        this.gcWindow = SlidingWindow.of(config, clock);
        this.clock = clock;
        this.windowNanos = config.windowNanos();
        this.bucketNanos = config.bucketNanos();
        this.lastCpuNanos = probe.processCpuNanos();
        this.lastSampleNanos = clock.nanoTime();
    }

    @Override
    public synchronized LocalResourceMonitor start() {
        if (!subscribed.isEmpty()) {
            return this;
        }
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                heapPools.add(pool.getName());
            }
        }
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(gcListener, null, null);
                subscribed.add(emitter);
            }
        }
        return this;
    }

    @Override
    public synchronized void close() {
        for (NotificationEmitter emitter : subscribed) {
            try {
                emitter.removeNotificationListener(gcListener);
            } catch (ListenerNotFoundException alreadyGone) {
                // Nothing to undo.
            }
        }
        subscribed.clear();
    }

    private void onNotification(Notification notification, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            return;
        }
        GcInfo info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData()).getGcInfo();
        long after = 0;
        for (Map.Entry<String, MemoryUsage> e : info.getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(e.getKey())) {
                after += e.getValue().getUsed();
            }
        }
        onGarbageCollection(info.getDuration() * 1_000_000L, after);
    }

    @Override
    public void onGarbageCollection(long durationNanos, long heapAfterGcBytes) {
        gcWindow.record(Math.max(0L, durationNanos));
        if (heapAfterGcBytes >= 0) {
            this.heapAfterGcBytes = heapAfterGcBytes;
        }
    }

    @Override
    public void registerHandOffQueue(String name, LongSupplier length) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(length, "length");
        queues.put(name, length);
    }

    @Override
    public void unregisterHandOffQueue(String name) {
        queues.remove(name);
    }

    @Override
    public long handOffQueueLength(String name) {
        LongSupplier q = queues.get(name);
        return q == null ? -1L : q.getAsLong();
    }

    @Override
    public void sample() {
        long cpuNow = probe.processCpuNanos();
        long delta;
        synchronized (this) {
            long now = clock.nanoTime();
            long elapsed = now - lastSampleNanos;
            if (cpuNow < 0 || lastCpuNanos < 0) {
                return;
            }
            delta = Math.max(0L, cpuNow - lastCpuNanos);
            if (elapsed > windowNanos - bucketNanos) {
                // The CPU was used since the last sample, maybe partly before the span the window
                // covers now: keep only that span's share (assuming an even use over the gap)
                // instead of a false spike.
                long covered = cpuWindow.snapshot().coveredNanos();
                if (elapsed > covered) {
                    delta = (long) (delta * ((double) covered / elapsed));
                }
            }
            lastCpuNanos = cpuNow;
            lastSampleNanos = now;
        }
        cpuWindow.add(1, delta);
    }

    @Override
    public LocalResourceSnapshot snapshot() {
        sample();
        WindowSnapshot cpu = cpuWindow.snapshot();
        WindowSnapshot gc = gcWindow.snapshot();
        double cores = cpu.sumPerSecond() / 1e9;
        int processors = Math.max(1, probe.availableProcessors());
        double gcFraction = gc.coveredNanos() <= 0 ? 0.0 : (double) gc.sum() / gc.coveredNanos();
        long queued = 0;
        for (LongSupplier q : queues.values()) {
            queued += Math.max(0L, q.getAsLong());
        }
        return new LocalResourceSnapshot(cores, cores / processors, probe.systemLoadAverage(),
                gc.count(), gc.sum(), gcFraction, gc.ratePerSecond(),
                probe.heapUsedBytes(), probe.heapMaxBytes(), heapAfterGcBytes,
                probe.liveThreads(), queued);
    }

    @Override
    public MeterBinder metrics() {
        return this::bind;
    }

    private void bind(MeterRegistry r) {
        gauge(r, "irmi.resources.cpu.process", "Process CPU used over the window, in cores", "cores", s -> s.processCpuCores());
        gauge(r, "irmi.resources.cpu.fraction", "Process CPU used over the window as a fraction of available processors", "ratio", s -> s.processCpuFraction());
        gauge(r, "irmi.resources.load.system", "System load average of the last minute", null /* in the name */, s -> s.systemLoadAverage());
        gauge(r, "irmi.resources.gc.count", "Garbage collections in the window", "collections", s -> s.gcCount());
        gauge(r, "irmi.resources.gc.time", "Time spent in garbage collection in the window", "seconds", s -> s.gcTimeNanos() / 1e9);
        gauge(r, "irmi.resources.gc.time.fraction", "Fraction of the window spent in garbage collection", "ratio", s -> s.gcTimeFraction());
        gauge(r, "irmi.resources.heap.used", "Heap in use", "bytes", s -> s.heapUsedBytes());
        gauge(r, "irmi.resources.heap.after.gc", "Heap in use right after the last garbage collection", "bytes", s -> s.heapAfterGcBytes());
        gauge(r, "irmi.resources.heap.pressure", "Heap in use divided by the maximum heap", "ratio", s -> s.heapPressure());
        gauge(r, "irmi.resources.threads.live", "Live threads", null /* in the name */, s -> s.liveThreads());
        for (String name : queues.keySet()) {
            Gauge.builder("irmi.resources.handoff.queue.length", this, m -> m.handOffQueueLength(name))
                    .description("Length of a registered hand-off queue").baseUnit("requests")
                    .tag("queue", name).strongReference(true).register(r);
        }
    }

    private void gauge(MeterRegistry r, String name, String description, String unit,
                       java.util.function.ToDoubleFunction<LocalResourceSnapshot> read) {
        Gauge.builder(name, this, m -> read.applyAsDouble(m.snapshot()))
                .description(description).baseUnit(unit).strongReference(true).register(r);
    }
}
