package org.irmi.monitors.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.irmi.monitors.CausalPairMonitor;
import org.irmi.monitors.Clock;
import org.irmi.monitors.PairSnapshot;
import org.irmi.monitors.SlidingWindow;
import org.irmi.sla.WindowConfig;

/**
 * {@link CausalPairMonitor} with two {@link SlidingWindow}s and two running totals per pair.
 *
 * <pre>
 *   growth/s   = inRate * fanOut - outRate
 *   diff       = totalIn * fanOut - totalOut            (since start)
 *   lowWater   = min(0, lowest diff seen by a snapshot)
 *   estimate   = diff - lowWater                        (never negative)
 * </pre>
 * The low-water mark keeps outgoing calls that have other causes (retries, calls made at start-up)
 * from hiding a later build-up behind a negative difference.
 *
 * <p>{@link #tick} samples the same running totals into one {@link PairWindow} per pair (formulas
 * there): the tick-sampled rates and the queue estimate Q that the slow-client point decides on.
 *
 * <p>THREAD-SAFE: the lookup map is immutable after construction; recording is lock-free; each
 * pair's low-water mark is updated under that pair's monitor; each pair's {@link PairWindow} is
 * ticking thread only.
 */
public final class WindowedCausalPairMonitor implements CausalPairMonitor {

    private final List<String> names;
    private final Map<String, Pair> byName;
    private final Clock clock;
    private final long windowNanos;

    /**
     * @param fanOutByPair each pair's fan-out by its name, in configuration order
     * @param config       window of every rate
     * @param clock        time source
     */
    public WindowedCausalPairMonitor(Map<String, Double> fanOutByPair, WindowConfig config, Clock clock) {
        Objects.requireNonNull(fanOutByPair, "fanOutByPair");
        Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.windowNanos = config.length().toNanos();
        Map<String, Pair> pairs = new LinkedHashMap<>();
        fanOutByPair.forEach((name, fanOut) -> {
            Objects.requireNonNull(name, "pair name");
            if (name.isBlank()) {
                throw new IllegalArgumentException("causal pair name must not be blank");
            }
            if (fanOut == null || !(fanOut > 0) || Double.isInfinite(fanOut)) {
                throw new IllegalArgumentException("fanOut of causal pair '" + name + "' must be a finite number > 0, was " + fanOut);
            }
            pairs.put(name, new Pair(name, fanOut, SlidingWindow.of(config, clock), SlidingWindow.of(config, clock),
                    new PairWindow(windowNanos, fanOut)));
        });
        this.names = List.copyOf(pairs.keySet());
        this.byName = Map.copyOf(pairs);
    }

    @Override
    public void recordIncoming(String pairName) {
        Pair p = pair(pairName);
        p.incoming.recordAt(clock.nanoTime(), 1);
        p.totalIn.increment();
    }

    @Override
    public void recordOutgoing(String pairName) {
        Pair p = pair(pairName);
        p.outgoing.recordAt(clock.nanoTime(), 1);
        p.totalOut.increment();
    }

    @Override
    public void registerQueueGauge(String pairName, LongSupplier length) {
        Objects.requireNonNull(length, "length");
        pair(pairName).queueGauge = length;
    }

    @Override
    public PairSnapshot snapshot(String pairName) {
        return pair(pairName).snapshot();
    }

    @Override
    public List<PairSnapshot> snapshots() {
        List<PairSnapshot> result = new ArrayList<>(names.size());
        for (String name : names) {
            result.add(byName.get(name).snapshot());
        }
        return result;
    }

    @Override
    public List<PairSnapshot> tick(long nowNanos) {
        List<PairSnapshot> result = new ArrayList<>(names.size());
        for (String name : names) {
            result.add(byName.get(name).tick(nowNanos));
        }
        return result;
    }

    @Override
    public List<String> pairNames() {
        return names;
    }

    @Override
    public MeterBinder metrics() {
        return registry -> {
            for (String name : names) {
                gauge(registry, "irmi.pairs.incoming.rate", "Incoming calls of the pair's incoming operation per second over the window", "calls/s", name, s -> s.incomingPerSecond());
                gauge(registry, "irmi.pairs.outgoing.rate", "Outgoing calls of the pair's outgoing operation per second over the window", "calls/s", name, s -> s.outgoingPerSecond());
                gauge(registry, "irmi.pairs.queue.growth", "Estimated queue growth: incoming rate times fan-out minus outgoing rate", "calls/s", name, s -> s.queueGrowthPerSecond());
                gauge(registry, "irmi.pairs.queue.estimated", "Integrated queue length estimate from the running totals", "calls", name, s -> s.estimatedQueueLength());
                gauge(registry, "irmi.pairs.queue.measured", "Queue length from the application-registered gauge (NaN when none is registered)", "calls", name,
                        s -> s.measuredQueueLength().isPresent() ? s.measuredQueueLength().getAsLong() : Double.NaN);
            }
        };
    }

    private void gauge(io.micrometer.core.instrument.MeterRegistry registry, String meter, String description, String unit,
                       String pairName, java.util.function.ToDoubleFunction<PairSnapshot> read) {
        Gauge.builder(meter, this, m -> read.applyAsDouble(m.snapshot(pairName)))
                .description(description).baseUnit(unit).tag("pair", pairName).strongReference(true).register(registry);
    }

    private Pair pair(String pairName) {
        Pair p = byName.get(Objects.requireNonNull(pairName, "pairName"));
        if (p == null) {
            throw new IllegalArgumentException("no causal pair named '" + pairName + "'; configured pairs: " + names);
        }
        return p;
    }

    /** One pair's state. */
    private static final class Pair {
        final String name;
        final double fanOut;
        final SlidingWindow incoming;
        final SlidingWindow outgoing;
        final LongAdder totalIn = new LongAdder();
        final LongAdder totalOut = new LongAdder();
        /** Ticking thread only. */
        final PairWindow ticks;
        volatile LongSupplier queueGauge;
        private double lowWater; // guarded by this

        Pair(String name, double fanOut, SlidingWindow incoming, SlidingWindow outgoing, PairWindow ticks) {
            this.name = name;
            this.fanOut = fanOut;
            this.incoming = incoming;
            this.outgoing = outgoing;
            this.ticks = ticks;
        }

        PairSnapshot tick(long nowNanos) {
            PairWindow.Sample s = ticks.onTick(nowNanos, totalIn.sum(), totalOut.sum());
            return new PairSnapshot(name, fanOut, s.inRate(), s.outRate(), s.growthPerSecond(), s.queueEstimate(),
                    measured());
        }

        private OptionalLong measured() {
            LongSupplier gauge = queueGauge;
            return gauge == null ? OptionalLong.empty() : OptionalLong.of(gauge.getAsLong());
        }

        PairSnapshot snapshot() {
            double in = incoming.snapshot().ratePerSecond();
            double out = outgoing.snapshot().ratePerSecond();
            double diff = totalIn.sum() * fanOut - totalOut.sum();
            double estimate;
            synchronized (this) {
                lowWater = Math.min(lowWater, diff);
                estimate = diff - lowWater;
            }
            return new PairSnapshot(name, fanOut, in, out, in * fanOut - out, estimate, measured());
        }
    }
}
