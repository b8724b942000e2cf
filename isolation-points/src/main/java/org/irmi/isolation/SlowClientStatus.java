package org.irmi.isolation;

/**
 * The slow-client point as operators and dashboards see it: which causal pairs and remote hosts
 * are triggered, and their windows as of the last tick. Part of {@link SlowClientPoint}.
 *
 * <p>THREAD SAFETY: any thread.
 */
public interface SlowClientStatus {
    /** @return whether the pair is triggered now. */
    boolean isTriggered(String pairName);

    /** @return whether calls to {@code host} are triggered now (pair or advertised overload). */
    boolean isHostTriggered(String host);

    /** @return every causal pair as of the last tick, in SLA order (for dashboards; any thread). */
    default java.util.List<CausalPairStatus> pairStatuses() {
        return java.util.List.of();
    }

    /** @return every remote host heard from, sorted by host (for dashboards; any thread). */
    default java.util.List<RemoteHostStatus> hostStatuses() {
        return java.util.List.of();
    }
}
