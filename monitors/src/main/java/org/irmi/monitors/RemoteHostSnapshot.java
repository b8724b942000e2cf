package org.irmi.monitors;

/**
 * What a client knows about one remote host's load, from the reports in its window.
 *
 * @param host                the remote host (as the client names it, e.g. {@code "10.0.0.7"})
 * @param latest              the most recent report, or null when only round trips are known
 * @param latestAtNanos       when the latest report arrived (monotonic, the store's clock); 0 when none
 * @param ageNanos            time since the latest report arrived, nanoseconds ({@link Long#MAX_VALUE}
 *                            when none)
 * @param reportsInWindow     reports received in the window
 * @param meanCpuPermille     mean CPU over the window's reports, permille
 * @param meanHeapPermille    mean heap pressure over the window's reports, permille
 * @param maxQueueLength      longest queue reported in the window
 * @param meanGcTimePermille  mean GC time fraction over the window's reports, permille
 * @param smoothedRttNanos    smoothed round trip of calls to the host (see
 *                            {@link RemoteLoadStore#onRoundTrip}), NaN before the first
 * @param rttAtNanos          when the latest round trip was recorded (monotonic); 0 before the first
 */
public record RemoteHostSnapshot(String host, LoadReport latest, long latestAtNanos, long ageNanos,
                                 long reportsInWindow, double meanCpuPermille, double meanHeapPermille,
                                 long maxQueueLength, double meanGcTimePermille, double smoothedRttNanos,
                                 long rttAtNanos) {

    /**
     * @param maxAgeNanos how old a report may be and still count
     * @return true if the latest report is no older than {@code maxAgeNanos}
     */
    public boolean isFresh(long maxAgeNanos) {
        return ageNanos <= maxAgeNanos;
    }
}
