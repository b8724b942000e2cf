package org.irmi.isolation;

import org.irmi.monitors.EdgeDetectorConfig;

/**
 * Maps the SLA's poison section onto the monitors' edge detector, which feeds the poison point.
 * The SLA module has already checked every value and named file, line and column for errors; the
 * mapping only converts shapes. (The isolation points take the SLA's sections themselves.)
 */
public final class SlaBindings {
    /** Samples in a row that must show the drop and the rise before a rising edge. */
    public static final int RISING_SAMPLES = 2;

    private SlaBindings() {
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
                // the drop and the rise in two samples in a row: one heavy request, one collection or
                // one compilation fills a single sample (and an episode of one sample lasted a whole
                // sample period, so it passed a minEpisode of one period)
                .risingSamples(RISING_SAMPLES)
                .resources(pc.resources())
                .build();
    }

    /** @return how often the edge detector is sampled: the detection window's bucket length. */
    public static long edgeSamplePeriodNanos(org.irmi.sla.PoisonConfig pc) {
        return pc.detectionWindow().length().toNanos() / Math.max(1, pc.detectionWindow().buckets());
    }
}
