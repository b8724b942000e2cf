package org.irmi.orb.isolation;

import java.util.List;

import org.irmi.isolation.IsolationRuntime;
import org.irmi.isolation.PoisonAdmission;
import org.irmi.isolation.SlowClientGate;
import org.irmi.sla.CrosstalkConfig;
import org.irmi.sla.StreamWeight;

/**
 * The runtime in force and its points as the per-request paths use them, worked out once per SLA:
 * a point is null when the SLA has none. Immutable; published through one volatile reference, so
 * every path sees the runtime and its points of the same SLA.
 *
 * @param runtime          the runtime in force
 * @param slowClient       its slow-client point, or null
 * @param poison           its poison-message point, or null
 * @param crosstalkHeaders whether the crosstalk point needs request headers (it has weights by
 *                         object key or tag; weights by client address need only the connection)
 * @param tags             whether a crosstalk weight matches the stream tag
 */
record RuntimeWiring(IsolationRuntime runtime, SlowClientGate slowClient, PoisonAdmission poison,
                     boolean crosstalkHeaders, boolean tags) {

    /** @return the wiring of {@code rt} */
    static RuntimeWiring of(IsolationRuntime rt) {
        List<StreamWeight> weights = rt.crosstalkConfig().map(CrosstalkConfig::weights).orElse(List.of());
        boolean headers = weights.stream().anyMatch(w -> w.kind() != StreamWeight.Kind.CLIENT);
        boolean tags = weights.stream().anyMatch(w -> w.kind() == StreamWeight.Kind.TAG);
        return new RuntimeWiring(rt, rt.slowClient().orElse(null), rt.poison().orElse(null), headers, tags);
    }
}
