package org.irmi.isolation;

import org.irmi.monitors.PairSnapshot;
import org.irmi.sla.CausalPair;

/**
 * One causal pair of the slow-client point at its last tick, as an operator reads it. An immutable
 * snapshot.
 *
 * @param pair      the pair (its name, globs and fan-out)
 * @param window    the pair's rates in and out over the SLA's window and the estimated queue
 *                  between them ({@link PairSnapshot#measuredQueueLength()} holds the
 *                  application's own queue gauge when one is registered)
 * @param host      the host its outgoing calls went to last, or null before the first
 * @param triggered whether the pair is triggered now (its calls go to the adaptation module)
 * @param evidence  the values the policy last weighed
 */
public record CausalPairStatus(CausalPair pair, PairSnapshot window, String host, boolean triggered, Evidence evidence) {
}
