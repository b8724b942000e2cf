package org.irmi.monitors;

/**
 * A compact summary of a server's load that every I-RMI server adds to its replies (as a GIOP
 * service context, see {@link LoadReportCodec}), so that clients can keep a window per remote host.
 *
 * <p>Fractions are carried in permille (0..1000) to keep the report small and exact on the wire.
 *
 * @param cpuPermille      process CPU over the server's window, as permille of its available processors
 * @param heapPermille     heap pressure: heap used / max heap, permille
 * @param queueLength      requests waiting in the server's hand-off queues, &gt;= 0
 * @param gcTimePermille   fraction of the window spent in GC, permille
 * @param gcPerMinute      garbage collections per minute over the window (saturates at 65535)
 * @param overloaded       the server's isolation points consider it overloaded (shed or degrade)
 * @param poisonEpisode    a poison-message episode (rising edge without recovery) is in progress
 */
public record LoadReport(int cpuPermille, int heapPermille, int queueLength, int gcTimePermille,
                         int gcPerMinute, boolean overloaded, boolean poisonEpisode) {

    /** Largest value of a permille field. */
    public static final int MAX_PERMILLE = 1_000;
    /** Largest {@link #gcPerMinute()} (an unsigned 16-bit field). */
    public static final int MAX_GC_PER_MINUTE = 65_535;

    /** Validates each field against its bound and names it. */
    public LoadReport {
        checkPermille(cpuPermille, "cpuPermille");
        checkPermille(heapPermille, "heapPermille");
        checkPermille(gcTimePermille, "gcTimePermille");
        if (queueLength < 0) {
            throw new IllegalArgumentException("queueLength must be >= 0, was " + queueLength);
        }
        if (gcPerMinute < 0 || gcPerMinute > MAX_GC_PER_MINUTE) {
            throw new IllegalArgumentException("gcPerMinute must be between 0 and " + MAX_GC_PER_MINUTE + ", was " + gcPerMinute);
        }
    }

    /**
     * Builds a report from a local snapshot, clamping every figure into its field's range.
     *
     * @param s             the local resources
     * @param overloaded    overload flag
     * @param poisonEpisode poison-episode flag
     * @return the report
     */
    public static LoadReport from(LocalResourceSnapshot s, boolean overloaded, boolean poisonEpisode) {
        return new LoadReport(permille(s.processCpuFraction()), permille(s.heapPressure()),
                (int) Math.min(Integer.MAX_VALUE, Math.max(0L, s.handOffQueueLength())),
                permille(s.gcTimeFraction()),
                (int) Math.min(MAX_GC_PER_MINUTE, Math.round(Math.max(0.0, s.gcPerSecond()) * 60.0)),
                overloaded, poisonEpisode);
    }

    /** @return {@link #cpuPermille()} as a fraction 0..1 */
    public double cpuFraction() {
        return cpuPermille / 1000.0;
    }

    /** @return {@link #heapPermille()} as a fraction 0..1 */
    public double heapPressure() {
        return heapPermille / 1000.0;
    }

    private static int permille(double fraction) {
        if (!(fraction > 0)) {
            return 0; // also NaN
        }
        return (int) Math.min(MAX_PERMILLE, Math.round(fraction * 1000.0));
    }

    private static void checkPermille(int value, String field) {
        if (value < 0 || value > MAX_PERMILLE) {
            throw new IllegalArgumentException(field + " must be between 0 and " + MAX_PERMILLE + " (permille), was " + value);
        }
    }
}
