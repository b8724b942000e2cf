package org.irmi.orb.isolation;

/**
 * One SLA objective side by side with what this server measured over the SLA's
 * {@code monitors.latency} window at the last evaluation (once a second). An immutable snapshot.
 *
 * @param objective            the objective's operation glob
 * @param p99TargetNanos       the p99 latency it allows, or -1 when it sets none
 * @param minThroughputPerSecond the throughput it asks for, or NaN when it sets none
 * @param maxErrorPercent      the error rate it allows, or NaN when it sets none
 * @param calls                matching calls in the window
 * @param p99Nanos             measured p99 (the largest p99 of the matching operations), 0 without calls
 * @param throughputPerSecond  measured matching calls per second
 * @param errorPercent         measured share of matching calls that failed with a system exception
 * @param violated             whether a target is missed now
 * @param why                  which target is missed and by what, or "" when met
 */
public record ObjectiveStatus(String objective, long p99TargetNanos, double minThroughputPerSecond,
                              double maxErrorPercent, long calls, long p99Nanos, double throughputPerSecond,
                              double errorPercent, boolean violated, String why) {
}
