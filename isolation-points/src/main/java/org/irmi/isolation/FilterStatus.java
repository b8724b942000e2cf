package org.irmi.isolation;

/**
 * Where one filtered request signature stands in its healing, as an operator reads it: refused
 * outright ({@code filtered}) until its cool-down ends, then on {@code probation} (a trickle of
 * probes; every healthy probe counts, one unhealthy probe refilters it with twice the cool-down).
 * An immutable snapshot.
 *
 * @param signature       the signature (operation, plus argument bytes when a rule says so)
 * @param phase           {@code filtered} or {@code probation}
 * @param phaseAgeNanos   how long it has been in that phase
 * @param coolDownNanos   the cool-down of this filtering (doubles at each refiltering)
 * @param coolDownLeftNanos what is left of the cool-down while {@code filtered}, 0 on probation
 * @param timesFiltered   1 for the first filtering, +1 at each refiltering
 * @param healthyProbes   healthy probes since probation began
 * @param probeInFlight   whether a probe runs now
 */
public record FilterStatus(String signature, String phase, long phaseAgeNanos, long coolDownNanos,
                           long coolDownLeftNanos, int timesFiltered, int healthyProbes,
                           boolean probeInFlight) {
}
