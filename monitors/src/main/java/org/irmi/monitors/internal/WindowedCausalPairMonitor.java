package org.irmi.monitors.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.irmi.monitors.CausalPair;
import org.irmi.monitors.CausalPairMonitor;
import org.irmi.monitors.Clock;
import org.irmi.monitors.PairSnapshot;
import org.irmi.monitors.SlidingWindow;
import org.irmi.monitors.WindowConfig;

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
 * <p>THREAD-SAFE: the lookup maps are immutable after construction; recording is lock-free; each
 * pair's low-water mark is updated under that pair's monitor.
 */
public final class WindowedCausalPairMonitor implements CausalPairMonitor {

    private final List<CausalPair> pairs;
    private final Map<String, Pair> byName;
    private final Map<String, Pair[]> byIncoming;
    private final Map<String, Pair[]> byOutgoing;
    private final Clock clock;

    /**
     * @param pairs  pairs with unique names
     * @param config window of every rate
     * @param clock  time source
     */
    public WindowedCausalPairMonitor(List<CausalPair> pairs, WindowConfig config, Clock clock) {
        Objects.requireNonNull(pairs, "pairs");
        Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.pairs = List.copyOf(pairs);
        Map<String, Pair> names = new LinkedHashMap<>();
        Map<String, List<Pair>> in = new HashMap<>();
        Map<String, List<Pair>> out = new HashMap<>();
        for (CausalPair p : this.pairs) {
            Pair state = new Pair(p, SlidingWindow.of(config, clock), SlidingWindow.of(config, clock));
            if (names.putIfAbsent(p.name(), state) != null) {
                throw new IllegalArgumentException("causal pair name '" + p.name() + "' is used twice; pair names must be unique");
            }
            in.computeIfAbsent(p.incomingOperation(), k -> new ArrayList<>()).add(state);
            out.computeIfAbsent(p.outgoingOperation(), k -> new ArrayList<>()).add(state);
        }
        this.byName = Map.copyOf(names);
        this.byIncoming = freeze(in);
        this.byOutgoing = freeze(out);
    }

    @Override
    public void recordIncoming(String operation) {
        Pair[] hits = byIncoming.get(operation);
        if (hits != null) {
            long now = clock.nanoTime();
            for (Pair p : hits) {
                p.incoming.recordAt(now, 1);
                p.totalIn.increment();
            }
        }
    }

    @Override
    public void recordOutgoing(String operation) {
        Pair[] hits = byOutgoing.get(operation);
        if (hits != null) {
            long now = clock.nanoTime();
            for (Pair p : hits) {
                p.outgoing.recordAt(now, 1);
                p.totalOut.increment();
            }
        }
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
        List<PairSnapshot> result = new ArrayList<>(pairs.size());
        for (CausalPair p : pairs) {
            result.add(byName.get(p.name()).snapshot());
        }
        return result;
    }

    @Override
    public List<CausalPair> pairs() {
        return pairs;
    }

    @Override
    public MeterBinder metrics() {
        return registry -> {
            for (CausalPair p : pairs) {
                String name = p.name();
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
            throw new IllegalArgumentException("no causal pair named '" + pairName + "'; configured pairs: " + byName.keySet());
        }
        return p;
    }

    private static Map<String, Pair[]> freeze(Map<String, List<Pair>> m) {
        Map<String, Pair[]> result = new HashMap<>();
        m.forEach((k, v) -> result.put(k, v.toArray(new Pair[0])));
        return Map.copyOf(result);
    }

    /** One pair's state. */
    private static final class Pair {
        final CausalPair pair;
        final SlidingWindow incoming;
        final SlidingWindow outgoing;
        final LongAdder totalIn = new LongAdder();
        final LongAdder totalOut = new LongAdder();
        volatile LongSupplier queueGauge;
        private double lowWater; // guarded by this

        Pair(CausalPair pair, SlidingWindow incoming, SlidingWindow outgoing) {
            this.pair = pair;
            this.incoming = incoming;
            this.outgoing = outgoing;
        }

        PairSnapshot snapshot() {
            double in = incoming.snapshot().ratePerSecond();
            double out = outgoing.snapshot().ratePerSecond();
            double diff = totalIn.sum() * pair.fanOut() - totalOut.sum();
            double estimate;
            synchronized (this) {
                lowWater = Math.min(lowWater, diff);
                estimate = diff - lowWater;
            }
            LongSupplier gauge = queueGauge;
            OptionalLong measured = gauge == null ? OptionalLong.empty() : OptionalLong.of(gauge.getAsLong());
            return new PairSnapshot(pair, in, out, in * pair.fanOut() - out, estimate, measured);
        }
    }
}
