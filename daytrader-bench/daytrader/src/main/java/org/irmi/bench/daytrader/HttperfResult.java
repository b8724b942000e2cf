package org.irmi.bench.daytrader;

/**
 * Everything httperf 0.9.x prints in its statistics lines that the experiments use (one field per
 * number of the lines {@code Total}, {@code Connection rate}, {@code Request rate}, {@code Reply rate},
 * {@code Reply time}, {@code Reply status}, both {@code Errors} lines and {@code Session rate}), plus
 * the command line and the raw output. Session fields are -1 when the run had no sessions.
 *
 * <p>A run with any {@code fd-unavail}, {@code addrunavail} or {@code ftab-full} error measured
 * httperf's own limits, not the server: {@link #isValid()} is false and {@link #invalidReason()} says why.
 */
public record HttperfResult(
        String commandLine,
        long connections, long requests, long replies, double testDurationSeconds,
        double connectionRatePerSecond, double msPerConnection, long maxConcurrentConnections,
        double requestRatePerSecond, double msPerRequest,
        double replyRateMin, double replyRateAvg, double replyRateMax, double replyRateStddev, long replyRateSamples,
        double replyTimeResponseMs, double replyTimeTransferMs,
        long status1xx, long status2xx, long status3xx, long status4xx, long status5xx,
        long errorsTotal, long clientTimeouts, long socketTimeouts, long connectionsRefused, long connectionsReset,
        long fdUnavailable, long addrUnavailable, long ftabFull, long errorsOther,
        double sessionRateMin, double sessionRateAvg, double sessionRateMax, double sessionRateStddev,
        long sessionsCompleted, long sessionsStarted,
        String rawOutput) {

    /** False when httperf ran out of descriptors, ports or its file table: the figures are then meaningless. */
    public boolean isValid() {
        return fdUnavailable == 0 && addrUnavailable == 0 && ftabFull == 0;
    }

    /** Why the run is invalid, or null when it is valid. */
    public String invalidReason() {
        if (isValid()) {
            return null;
        }
        return "httperf hit its own limits (fd-unavail " + fdUnavailable + ", addrunavail " + addrUnavailable + ", ftab-full "
                + ftabFull + "): lower the session count or use persistent sessions; the run is invalid";
    }

    /** Replies per second over the whole test (httperf's reply-rate average needs 5 s samples; this does not). */
    public double replyThroughputPerSecond() {
        return testDurationSeconds <= 0 ? 0 : replies / testDurationSeconds;
    }

    /** Replies with status 2xx or 3xx per second over the whole test. */
    public double goodputPerSecond() {
        return testDurationSeconds <= 0 ? 0 : (status2xx + status3xx) / testDurationSeconds;
    }

    @Override
    public String toString() {
        return String.format("httperf: %d requests, %d replies in %.1f s = %.1f replies/s, response %.1f ms, 2xx %d 5xx %d,"
                        + " errors %d (client-timo %d, connreset %d)%s", requests, replies, testDurationSeconds,
                replyThroughputPerSecond(), replyTimeResponseMs, status2xx, status5xx, errorsTotal, clientTimeouts,
                connectionsReset, isValid() ? "" : " INVALID: " + invalidReason());
    }
}
