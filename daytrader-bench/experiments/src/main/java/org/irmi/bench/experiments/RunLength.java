package org.irmi.bench.experiments;

/**
 * How long the experiments run. {@link #FULL} uses the paper's durations; {@link #QUICK} runs all
 * three experiments in under five minutes; {@link #TINY} is the CI configuration (seconds each),
 * only good enough to check the report and the direction of each comparison.
 */
public enum RunLength {
    TINY(0.12, 1),
    QUICK(0.3, 1),
    FULL(1.0, 3);

    private final double scale;
    private final int repetitions;

    RunLength(double scale, int repetitions) {
        this.scale = scale;
        this.repetitions = repetitions;
    }

    /** @return the default number of interleaved trials per ORB and condition at this length */
    public int repetitions() {
        return repetitions;
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
