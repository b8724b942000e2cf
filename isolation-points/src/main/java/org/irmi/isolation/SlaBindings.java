package org.irmi.isolation;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.irmi.monitors.EdgeDetectorConfig;
import org.irmi.sla.ArgumentSignature;
import org.irmi.sla.Cidr;
import org.irmi.sla.MonitorsConfig;
import org.irmi.sla.StreamWeight;

/**
 * Maps the SLA's validated, immutable sections onto the isolation points' configs. The SLA module
 * has already checked every value and named file, line and column for errors; the mapping only
 * converts units (percent to fraction) and shapes.
 */
public final class SlaBindings {
    private SlaBindings() {
    }

    /** @return the slow-client config of an SLA section, with the causal pairs of {@code monitors}. */
    public static SlowClientConfig slowClient(org.irmi.sla.SlowClientConfig sc, MonitorsConfig monitors) {
        SlowClientConfig.Builder b = SlowClientConfig.custom()
                .guards(sc::guards)
                .window(monitors.requestRates().length())
                .queueGrowthPerSecond(sc.queueGrowthPerSecond())
                .maxQueueLength(sc.maxQueueLength())
                .heapPressureHigh(sc.heapPressurePercent() / 100.0)
                .gcPerSecondHigh(sc.gcPerSecond())
                .cpuHigh(sc.cpuPercent() / 100.0)
                .remoteCpuHigh(sc.remoteLoad().cpuPercent() / 100.0)
                .remoteHeapPressureHigh(sc.remoteLoad().heapPressurePercent() / 100.0)
                .remoteQueueHigh((int) Math.min(Integer.MAX_VALUE, sc.remoteLoad().queueLength()))
                .remoteGcPerSecondHigh(sc.remoteLoad().gcPerSecond())
                .remoteRttHigh(sc.remoteLoad().rtt())
                .reactToPeerOverload(sc.reactToPeerOverload())
                .remoteReportMaxAge(monitors.remoteResources().length())
                .module(sc.action().module().name());
        sc.queueGauge().ifPresent(b::queueGauge);
        monitors.causalPairs().forEach(b::pair);
        return b.build();
    }

    /** @return the poison config of an SLA section. */
    public static PoisonConfig poison(org.irmi.sla.PoisonConfig pc) {
        PoisonConfig.Builder b = PoisonConfig.custom()
                .attribution(pc.attribution())
                .minEpisodes(pc.confirmEpisodes())
                .coolDown(pc.coolDown())
                .probationRatePerSecond(pc.probation().ratePerSecond())
                .admitAfter(pc.probation().admitAfter())
                .neverFilter(pc::isProtected)
                .minEpisode(pc.minEpisode())
                .module(pc.action().module().name());
        for (ArgumentSignature s : pc.signatures()) {
            b.signature(new SignatureRule(s.name(), s.operation(), s.offset(),
                    s.length(), s.patternBytes().orElse(null)));
        }
        return b.build();
    }

    /**
     * @return the monitors' edge detector config for the poison section: a rising edge at {@code
     *         throughputDrop} below baseline with a {@code resourceRise} rise of one of the SLA's
     *         {@code resources}. Feed the detector one sample per {@link #edgeSamplePeriodNanos}
     *         (the detection window's bucket); the baseline then holds the samples of
     *         {@code baselineWindow}'s length (at least 3).
     */
    public static EdgeDetectorConfig edges(org.irmi.sla.PoisonConfig pc) {
        long period = Math.max(1, edgeSamplePeriodNanos(pc));
        int baselineSamples = (int) Math.max(3, Math.min(10_000,
                (pc.baselineWindow().length().toNanos() + period - 1) / period));
        return EdgeDetectorConfig.custom()
                .throughputDropPercent(pc.throughputDropPercent())
                // recovery (the falling edge) must sit above the rising edge's threshold, or the
                // detector has no hysteresis: half the drop when the SLA's drop is small
                .recoveryPercent(Math.min(EdgeDetectorConfig.DEFAULT_RECOVERY_PERCENT, pc.throughputDropPercent() / 2))
                .resourceRisePercent(pc.resourceRisePercent())
                .baselineSamples(baselineSamples)
                // the SLA's baseline is its whole baselineWindow: no edge until a full window of
                // traffic has been seen (a 3-sample baseline at start-up took cold requests for a drop)
                .minBaselineSamples(baselineSamples)
                .resources(pc.resources().stream()
                        .map(r -> org.irmi.monitors.EdgeEvent.Resource.valueOf(r.name()))
                        .toList())
                .build();
    }

    /** @return how often the edge detector is sampled: the detection window's bucket length. */
    public static long edgeSamplePeriodNanos(org.irmi.sla.PoisonConfig pc) {
        return pc.detectionWindow().length().toNanos() / Math.max(1, pc.detectionWindow().buckets());
    }

    /** @return the crosstalk config of an SLA section. */
    public static CrosstalkConfig crosstalk(org.irmi.sla.CrosstalkConfig cc) {
        CrosstalkConfig.Builder b = CrosstalkConfig.custom()
                .baseReadBudgetBytes(cc.baseReadBudgetBytes())
                .minReceiveBufferBytes(cc.minReceiveBufferBytes())
                .maxReceiveBufferBytes(cc.maxReceiveBufferBytes())
                .defaultWeight(cc.defaultWeight())
                .idleAfter(cc.idleAfter());
        for (StreamWeight w : cc.weights()) {
            switch (w.kind()) {
                case CLIENT -> {
                    Cidr cidr = w.cidr();
                    b.rule(new WeightRule(WeightRule.Match.CLIENT_ADDRESS,
                            address -> inCidr(cidr, address), w.value(), w.weight()));
                }
                case OBJECT_KEY -> b.rule(WeightRule.glob(WeightRule.Match.OBJECT_KEY,
                        w.objectKeyPattern().glob(), w.weight()));
                case TAG -> b.rule(new WeightRule(WeightRule.Match.TAG, w.value()::equals,
                        w.value(), w.weight()));
                default -> throw new IllegalStateException("unknown weight kind " + w.kind());
            }
        }
        return b.build();
    }

    private static boolean inCidr(Cidr cidr, String address) {
        // only literal addresses reach here (the ORB passes the peer's IP): no DNS lookup happens
        if (address.isEmpty() || !(Character.isDigit(address.charAt(0)) || address.indexOf(':') >= 0)) {
            return false;
        }
        try {
            return cidr.contains(InetAddress.getByName(address));
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
