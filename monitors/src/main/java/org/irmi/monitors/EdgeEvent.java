package org.irmi.monitors;

import org.irmi.sla.PoisonConfig.Resource;

import java.util.Map;

/**
 * An edge found by an {@link EdgeDetector}, with its evidence: the sample that crossed and the
 * baseline it was compared with.
 */
public sealed interface EdgeEvent permits EdgeEvent.RisingEdge, EdgeEvent.FallingEdge {

    /** @return when the edge was seen (the sample's time), nanoseconds */
    long atNanos();

    /** @return the sample that crossed */
    EdgeSample sample();

    /** @return the baseline (mean of the normal samples before the episode) */
    EdgeSample baseline();

    /** Why an episode ended. */
    enum Recovery {
        /** Throughput came back within the recovery margin of its baseline. */
        RECOVERED,
        /** The episode lasted longer than the configured maximum; the detector starts over. */
        EXPIRED
    }

    /**
     * Throughput fell more than the configured percentage below its baseline while at least one
     * resource rose more than its percentage: the start of a (possible) poison episode.
     *
     * @param atNanos               when
     * @param sample                the sample
     * @param baseline              the baseline
     * @param throughputDropPercent how far throughput fell below the baseline, percent
     * @param risePercent           the resources that rose, with their rise in percent (only those)
     */
    record RisingEdge(long atNanos, EdgeSample sample, EdgeSample baseline, double throughputDropPercent,
                      Map<Resource, Double> risePercent) implements EdgeEvent {
        /** Copies the map. */
        public RisingEdge {
            risePercent = Map.copyOf(risePercent);
        }
    }

    /**
     * The episode is over: throughput recovered (or the episode expired).
     *
     * @param atNanos       when
     * @param sample        the sample
     * @param baseline      the baseline of the episode
     * @param episodeNanos  time since the rising edge, nanoseconds
     * @param reason        why it ended
     */
    record FallingEdge(long atNanos, EdgeSample sample, EdgeSample baseline, long episodeNanos,
                       Recovery reason) implements EdgeEvent {
    }
}
