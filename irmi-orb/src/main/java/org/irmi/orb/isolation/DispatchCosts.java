package org.irmi.orb.isolation;

import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

import org.irmi.isolation.IncomingRequest;
import org.irmi.isolation.PoisonAdmission;
import org.irmi.monitors.RequestCostMonitor;
import org.irmi.orb.CallOutcome;
import org.irmi.orb.RequestCost;
import org.irmi.orb.RequestCostListener;

/**
 * Where the cost of each dispatched request goes: its latency and outcome to the SLA objectives,
 * its completion and allocation to the edge sampler, its CPU and allocation to the per-operation
 * cost meters (when kept) and to the poison-message point, which ends the request there.
 *
 * <p>THREADING: dispatch threads, concurrently; never blocks.
 */
final class DispatchCosts implements RequestCostListener {

    private final ObjectiveMonitor objectives;
    private final EdgeSampler edges;
    private final RequestCostMonitor costs;
    private final Supplier<RuntimeWiring> wiring;

    /**
     * @param costs  the per-operation and per-stream cost meters, or null when not kept
     * @param wiring the wiring in force, read once per request
     */
    DispatchCosts(ObjectiveMonitor objectives, EdgeSampler edges, RequestCostMonitor costs,
                  Supplier<RuntimeWiring> wiring) {
        this.objectives = objectives;
        this.edges = edges;
        this.costs = costs;
        this.wiring = wiring;
    }

    @Override
    public void onRequestCost(RequestCost c) {
        objectives.record(c.operation(), c.elapsedNanos(), c.outcome() == CallOutcome.SYSTEM_EXCEPTION);
        edges.onCompletion(c.allocatedBytes());
        if (costs != null && c.allocatedBytes() >= 0) {
            String peer = c.peerAddress();
            int colon = peer.lastIndexOf(':');
            costs.record(new String(c.objectKey(), StandardCharsets.ISO_8859_1), c.operation(),
                    colon < 0 ? peer : peer.substring(0, colon), c.cpuNanos(), c.allocatedBytes());
        }
        PoisonAdmission poison = wiring.get().poison();
        if (poison != null) {
            poison.onDispatchEnd(IncomingRequest.requestKey(c.connectionId(), c.requestId()), c.cpuNanos(),
                    c.allocatedBytes());
        }
    }
}
