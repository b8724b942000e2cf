package org.irmi.isolation;

import java.util.Objects;

/**
 * An incoming operation that causes outgoing calls (the paper's causally connected APIs; the SLA
 * names them, the paper left detecting them to others). The difference between the incoming rate
 * times {@code fanOut} and the outgoing rate is the growth of the queue between them.
 *
 * @param name     the pair's name, for logs, events and {@code registerQueueGauge}
 * @param incoming glob over the operations this node receives (e.g. {@code publish})
 * @param target   glob over the targets called (host, {@code host:port} or object key)
 * @param outgoing glob over the operations this node then calls downstream (e.g. {@code deliver})
 * @param fanOut   outgoing calls caused per incoming call, &gt; 0
 */
public record CausalPair(String name, Glob incoming, Glob target, Glob outgoing, double fanOut) {
    public CausalPair {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(incoming, "incoming");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(outgoing, "outgoing");
        if (!(fanOut > 0)) {
            throw new IllegalArgumentException("causal pair `" + name + "`: fanOut must be > 0, was "
                    + fanOut);
        }
    }

    /** @return a pair of literal operations, any target, fan-out 1. */
    public static CausalPair of(String name, String incomingOperation, String outgoingOperation) {
        return new CausalPair(name, Glob.of(incomingOperation), Glob.ANY, Glob.of(outgoingOperation),
                1.0);
    }

    /** @return whether an outgoing call belongs to this pair. */
    public boolean matchesOutgoing(OutgoingCall call) {
        return outgoing.matches(call.operation()) && (target == Glob.ANY
                || target.matches(call.targetHost()) || target.matches(call.objectKey())
                || target.matches(call.targetHost() + ":" + call.targetPort()));
    }
}
