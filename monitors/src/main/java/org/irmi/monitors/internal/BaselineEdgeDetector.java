package org.irmi.monitors.internal;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.irmi.monitors.EdgeDetector;
import org.irmi.monitors.EdgeDetectorConfig;
import org.irmi.monitors.EdgeEvent;
import org.irmi.monitors.EdgeEvent.FallingEdge;
import org.irmi.monitors.EdgeEvent.Recovery;
import org.irmi.sla.PoisonConfig.Resource;
import org.irmi.monitors.EdgeEvent.RisingEdge;
import org.irmi.monitors.EdgeSample;

/**
 * {@link EdgeDetector} comparing each sample with the mean of the last normal samples.
 *
 * <pre>
 *   B            = mean of the last baselineSamples normal samples (frozen during an episode)
 *   drop%        = 100 * (1 - tp / B.tp)
 *   rise%(r)     = 100 * (r - max(B.r, floor_r)) / max(B.r, floor_r)      r in {cpu, gc, alloc}
 *   busy         = baseline samples whose tp &gt;= minBaselineThroughput (samples with traffic)
 *   rising edge  : normal, busy &gt;= minBaselineSamples, B.tp &gt;= minBaselineThroughput,
 *                  drop% &gt; X and some rise%(r) &gt; Y and not taken, in risingSamples samples in a row
 *   taken        : others - B.others &gt; max(cpuFloor, cpu - B.cpu)     (others: the other processes' CPU)
 *   falling edge : episode and tp &gt;= B.tp * (1 - R/100) for recoverySamples samples in a row
 *                  (RECOVERED), or now - risingAt &gt;= maxEpisode (EXPIRED)
 * </pre>
 * A normal sample that is not an edge enters the baseline (so a drop in load with no resource rise
 * simply lowers the baseline), except the samples of a rise not yet held for risingSamples. A
 * sample whose CPU was taken by other processes makes no edge, is counted
 * ({@link #contendedSamples()}) and enters the baseline, so a long contention (a build of several
 * minutes) becomes the normal against which a poison on top of it is still seen.
 *
 * <p>SINGLE-THREADED for {@link #onSample}; counters, the episode flag and the ready flag are volatile
 * for readers.
 */
public final class BaselineEdgeDetector implements EdgeDetector {

    private final EdgeDetectorConfig config;
    private final EdgeSample[] ring;
    private int ringSize;
    private int ringNext;
    private EdgeSample episodeBaseline;
    private long episodeStartNanos;
    private int recoveredInARow;
    /** Samples in a row so far that showed the drop and a rise (below risingSamples). */
    private int pendingRise;
    private volatile long contended;
    private volatile boolean inEpisode;
    private volatile boolean baselineReady;
    private volatile long rising;
    private volatile long falling;

    /** @param config thresholds */
    public BaselineEdgeDetector(EdgeDetectorConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.ring = new EdgeSample[config.baselineSamples()];
    }

    @Override
    public Optional<EdgeEvent> onSample(EdgeSample s) {
        Objects.requireNonNull(s, "sample");
        if (inEpisode) {
            return duringEpisode(s);
        }
        if (busySamples() >= config.minBaselineSamples()) {
            EdgeSample base = mean();
            if (base.throughputPerSecond() >= config.minBaselineThroughput() && base.throughputPerSecond() > 0
                    // Compared as products, not as a percentage, so that a drop of exactly X is exactly X.
                    && s.throughputPerSecond() * 100.0 < base.throughputPerSecond() * (100.0 - config.throughputDropPercent())) {
                Map<Resource, Double> risen = new EnumMap<>(Resource.class);
                check(risen, Resource.CPU, s.cpuCores(), base.cpuCores(), config.cpuFloorCores());
                check(risen, Resource.GC, s.gcTimeFraction(), base.gcTimeFraction(), config.gcFloorFraction());
                check(risen, Resource.ALLOCATION, s.allocatedBytesPerSecond(), base.allocatedBytesPerSecond(),
                        config.allocationFloorBytesPerSecond());
                if (!risen.isEmpty()) {
                    if (takenByOthers(s, base)) {
                        contended++;
                    } else if (++pendingRise < config.risingSamples()) {
                        return Optional.empty(); // a rise not yet held long enough; kept out of the baseline
                    } else {
                        double drop = 100.0 * (base.throughputPerSecond() - s.throughputPerSecond()) / base.throughputPerSecond();
                        pendingRise = 0;
                        episodeBaseline = base;
                        episodeStartNanos = s.atNanos();
                        recoveredInARow = 0;
                        inEpisode = true;
                        rising++;
                        return Optional.of(new RisingEdge(s.atNanos(), s, base, drop, risen));
                    }
                }
            }
        }
        pendingRise = 0;
        addToBaseline(s);
        return Optional.empty();
    }

    /**
     * Whether other processes took the CPU: their CPU rose above its baseline by more than the CPU
     * floor and by more than this process's own CPU rose. The throughput drop then has its cause
     * outside the process (a browser starting, a build, a backup), and whatever rose inside it is
     * not a poison's doing: GC pauses last longer in wall time when the collector's threads wait for
     * a core, requests delayed together end (and report their allocation) together, and one ordinary
     * heavy request is no longer hidden by a steady rate. Unknown (NaN) never counts as taken.
     */
    private boolean takenByOthers(EdgeSample s, EdgeSample base) {
        double othersRise = s.othersCores() - base.othersCores();
        if (Double.isNaN(othersRise)) {
            return false;
        }
        double ownRise = Math.max(0.0, s.cpuCores() - base.cpuCores());
        return othersRise > config.cpuFloorCores() && othersRise > ownRise;
    }

    private Optional<EdgeEvent> duringEpisode(EdgeSample s) {
        EdgeSample base = episodeBaseline;
        long lasted = s.atNanos() - episodeStartNanos;
        if (s.throughputPerSecond() * 100.0 >= base.throughputPerSecond() * (100.0 - config.recoveryPercent())) {
            recoveredInARow++;
        } else {
            recoveredInARow = 0;
        }
        Recovery reason = null;
        if (recoveredInARow >= config.recoverySamples()) {
            reason = Recovery.RECOVERED;
        } else if (lasted >= config.maxEpisode().toNanos()) {
            reason = Recovery.EXPIRED;
        }
        if (reason == null) {
            return Optional.empty();
        }
        inEpisode = false;
        episodeBaseline = null;
        falling++;
        if (reason == Recovery.EXPIRED) {
            // The old normal is gone for good; learn the new one from scratch.
            ringSize = 0;
            ringNext = 0;
            baselineReady = false;
        }
        return Optional.of(new FallingEdge(s.atNanos(), s, base, lasted, reason));
    }

    private void check(Map<Resource, Double> risen, Resource r, double value, double baseline, double floor) {
        if (!config.resources().contains(r)) {
            return;
        }
        double ref = Math.max(baseline, floor);
        if (ref <= 0) {
            return; // floor 0 and idle baseline: a rise has no meaningful percentage
        }
        if (value * 100.0 > ref * (100.0 + config.resourceRisePercent())) {
            risen.put(r, 100.0 * (value - ref) / ref);
        }
    }

    private void addToBaseline(EdgeSample s) {
        ring[ringNext] = s;
        ringNext = (ringNext + 1) % ring.length;
        ringSize = Math.min(ringSize + 1, ring.length);
        baselineReady = busySamples() >= config.minBaselineSamples();
    }

    /**
     * Baseline samples that carried traffic. Before the load begins a server's samples are idle; a
     * baseline of a few idle and ramp-up samples would take the first cold requests (class loading,
     * the JIT, caches filling) for a drop.
     */
    private int busySamples() {
        int busy = 0;
        for (int i = 0; i < ringSize; i++) {
            if (ring[i].throughputPerSecond() >= config.minBaselineThroughput() && ring[i].throughputPerSecond() > 0) {
                busy++;
            }
        }
        return busy;
    }

    private EdgeSample mean() {
        double tp = 0;
        double cpu = 0;
        double gc = 0;
        double alloc = 0;
        double others = 0;
        long at = 0;
        for (int i = 0; i < ringSize; i++) {
            EdgeSample x = ring[i];
            tp += x.throughputPerSecond();
            cpu += x.cpuCores();
            gc += x.gcTimeFraction();
            alloc += x.allocatedBytesPerSecond();
            others += x.othersCores(); // NaN in any sample: unknown
            at = Math.max(at, x.atNanos());
        }
        return new EdgeSample(at, tp / ringSize, cpu / ringSize, gc / ringSize, alloc / ringSize, others / ringSize);
    }

    @Override
    public boolean inEpisode() {
        return inEpisode;
    }

    @Override
    public long risingEdges() {
        return rising;
    }

    @Override
    public long fallingEdges() {
        return falling;
    }

    @Override
    public long contendedSamples() {
        return contended;
    }

    @Override
    public boolean baselineReady() {
        return baselineReady;
    }

    @Override
    public Optional<EdgeSample> baseline() {
        EdgeSample frozen = episodeBaseline;
        if (frozen != null) {
            return Optional.of(frozen);
        }
        return ringSize == 0 ? Optional.empty() : Optional.of(mean());
    }

    @Override
    public MeterBinder metrics(String detectorName) {
        Objects.requireNonNull(detectorName, "detectorName");
        return r -> {
            // The function captures this: FunctionCounter holds its object weakly but its function strongly.
            // No base unit where the name says what is counted (edges, episode): Prometheus would repeat it.
            FunctionCounter.builder("irmi.edges.rising", this, d -> risingEdges())
                    .description("Rising edges: throughput drop with a resource rise (start of a possible poison episode)")
                    .tag("detector", detectorName).register(r);
            FunctionCounter.builder("irmi.edges.falling", this, d -> fallingEdges())
                    .description("Falling edges: recovery or expiry of an episode")
                    .tag("detector", detectorName).register(r);
            FunctionCounter.builder("irmi.edges.contended", this, d -> contendedSamples())
                    .description("Samples whose throughput drop and resource rise were set aside: other processes took the CPU")
                    .baseUnit("samples").tag("detector", detectorName).register(r);
            Gauge.builder("irmi.edges.episode.active", this, d -> d.inEpisode() ? 1 : 0)
                    .description("1 while an episode (rising edge without falling edge) is watched; not an alarm by itself")
                    .tag("detector", detectorName).strongReference(true).register(r);
        };
    }
}
