package org.irmi.monitors;

import java.util.Optional;

import io.micrometer.core.instrument.binder.MeterBinder;
import org.irmi.monitors.internal.BaselineEdgeDetector;

/**
 * Finds the edges of a poison episode in a stream of {@link EdgeSample}s. A pure core: samples in,
 * events out, no clock, no I/O, so its tests are exact arithmetic.
 *
 * <ul>
 *   <li><b>Rising edge</b>: throughput below its baseline by more than X% while CPU, GC time or
 *       allocation is above its baseline by more than Y%, in a configured number of samples in a
 *       row, unless other processes took the CPU (their CPU rose more than this process's).</li>
 *   <li><b>Falling edge</b>: throughput back within R% (R &lt; X: hysteresis) of the same baseline,
 *       or the episode exceeded its maximum length.</li>
 * </ul>
 * The baseline is the mean of the last normal samples (samples during an episode never enter it).
 *
 * <p>SINGLE-THREADED: one thread (or callers holding one lock) feeds {@link #onSample}. The read-only
 * counters, {@link #inEpisode()} and {@link #baselineReady()} may be read from any thread.
 */
public interface EdgeDetector {

    /**
     * Feeds one sample.
     *
     * @param sample the observation; times must not go backwards
     * @return the edge this sample makes, if any
     */
    Optional<EdgeEvent> onSample(EdgeSample sample);

    /** @return true between a rising edge and its falling edge (any thread) */
    boolean inEpisode();

    /** @return rising edges so far (any thread) */
    long risingEdges();

    /** @return falling edges so far (any thread) */
    long fallingEdges();

    /**
     * @return samples so far whose throughput drop and resource rise were set aside because other
     *         processes' CPU rose more than this process's own (any thread)
     */
    default long contendedSamples() {
        return 0;
    }

    /**
     * @return whether the baseline holds {@code minBaselineSamples} samples with traffic, so that a
     *         sample may make a rising edge; false before, and again after an episode that expired
     *         until the new baseline is learnt (any thread)
     */
    boolean baselineReady();

    /** @return the current baseline, or empty before the first sample */
    Optional<EdgeSample> baseline();

    /**
     * Counters {@code irmi.edges.rising}, {@code irmi.edges.falling}, {@code irmi.edges.contended} and gauge
     * {@code irmi.edges.episode.active}, tagged {@code detector}.
     *
     * @param detectorName a fixed name, e.g. {@code "poison"}
     * @return the binder
     */
    MeterBinder metrics(String detectorName);

    /**
     * @param config thresholds
     * @return a new detector
     */
    static EdgeDetector of(EdgeDetectorConfig config) {
        return new BaselineEdgeDetector(config);
    }
}
