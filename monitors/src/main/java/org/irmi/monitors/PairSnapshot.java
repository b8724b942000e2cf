package org.irmi.monitors;

import java.util.OptionalLong;

/**
 * Rates of one causal pair over its window.
 *
 * @param pair                  the pair's name
 * @param fanOut                outgoing calls per incoming call
 * @param incomingPerSecond     incoming calls per second
 * @param outgoingPerSecond     outgoing calls per second
 * @param queueGrowthPerSecond  {@code incomingPerSecond * fanOut - outgoingPerSecond}: how many queued
 *                              outgoing calls are added per second (negative while it drains)
 * @param estimatedQueueLength  integrated estimate: {@code totalIn * fanOut - totalOut} since start,
 *                              measured from its lowest point so far (never negative)
 * @param measuredQueueLength   the length reported by an application-registered queue gauge, if any
 */
public record PairSnapshot(String pair, double fanOut, double incomingPerSecond, double outgoingPerSecond,
                           double queueGrowthPerSecond, double estimatedQueueLength,
                           OptionalLong measuredQueueLength) {
}
