package org.irmi.isolation;

import java.util.Set;

/**
 * The analysis of one poison episode, from its rising edge to its falling edge.
 *
 * @param episode      1 for the first episode since start
 * @param risingNanos  time of the rising edge
 * @param fallingNanos time of the falling edge
 * @param inFlightAtRise S1: the signatures in flight at the rising edge
 * @param suspects     S1 - S2 (signatures in flight at the rise and not at the fall)
 * @param narrowed     suspects intersected over the episodes so far
 * @param namedByCost  the signature named by per-request cost attribution, or null
 * @param filtered     the signatures this episode put on the filter
 * @param evidence     the numbers behind the verdict (episode costs, baseline costs, shares)
 */
public record EpisodeReport(int episode, long risingNanos, long fallingNanos,
                            Set<String> inFlightAtRise, Set<String> suspects,
                            Set<String> narrowed, String namedByCost, Set<String> filtered,
                            Evidence evidence) {
}
