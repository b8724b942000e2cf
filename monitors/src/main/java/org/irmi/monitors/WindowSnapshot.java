package org.irmi.monitors;

/**
 * What a {@link SlidingWindow} held at one instant.
 *
 * @param count        number of samples in the window
 * @param sum          sum of the sample values (unit of the recorded values)
 * @param min          smallest sample value, or 0 when {@code count == 0}
 * @param max          largest sample value, or 0 when {@code count == 0}
 * @param coveredNanos time the window's samples span: the closed buckets plus the elapsed part of
 *                     the current one, never more than the time since the window was created
 */
public record WindowSnapshot(long count, long sum, long min, long max, long coveredNanos) {

    /** An empty snapshot covering no time. */
    public static final WindowSnapshot EMPTY = new WindowSnapshot(0, 0, 0, 0, 0);

    /** @return samples per second over the covered time (0 when no time is covered) */
    public double ratePerSecond() {
        return coveredNanos <= 0 ? 0.0 : count * 1e9 / coveredNanos;
    }

    /** @return sum of values per second over the covered time (0 when no time is covered) */
    public double sumPerSecond() {
        return coveredNanos <= 0 ? 0.0 : sum * 1e9 / coveredNanos;
    }

    /** @return mean sample value, or 0 when empty */
    public double mean() {
        return count == 0 ? 0.0 : (double) sum / count;
    }
}
