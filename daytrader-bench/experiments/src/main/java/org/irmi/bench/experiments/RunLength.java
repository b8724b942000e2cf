package org.irmi.bench.experiments;

/**
 * How long the experiments run. {@link #FULL} uses the paper's durations; {@link #QUICK} runs all
 * three experiments in under five minutes; {@link #TINY} is the CI configuration (seconds each),
 * only good enough to check the report and the direction of each comparison.
 */
public enum RunLength {
    TINY(0.12),
    QUICK(0.3),
    FULL(1.0);

    private final double scale;

    RunLength(double scale) {
        this.scale = scale;
    }

    /**
     * Scales a paper-length duration.
     *
     * @param fullMillis the duration at full length
     * @param minMillis the floor below which the phase would measure nothing useful
     * @return the duration for this run length, in milliseconds
     */
    public long millis(long fullMillis, long minMillis) {
        return Math.max(minMillis, Math.round(fullMillis * scale));
    }
}
