package org.irmi.monitors;

import java.util.Objects;

/**
 * A causal pair from the SLA: each incoming call of {@code incomingOperation} causes
 * {@code fanOut} outgoing calls of {@code outgoingOperation} (on average), which queue up until they
 * are sent. Comparing the two rates estimates how fast that queue grows.
 *
 * @param name              the pair's name in the SLA; used as a metric tag, so keep the set small
 * @param incomingOperation the operation received (e.g. {@code "submitEvent"})
 * @param outgoingOperation the call made in consequence (e.g. {@code "forward"})
 * @param fanOut            outgoing calls per incoming call, &gt; 0 (1.0 for one-to-one)
 */
public record CausalPair(String name, String incomingOperation, String outgoingOperation, double fanOut) {

    /** Validates every field and names the one that is wrong. */
    public CausalPair {
        requireText(name, "name");
        requireText(incomingOperation, "incomingOperation");
        requireText(outgoingOperation, "outgoingOperation");
        if (!(fanOut > 0) || Double.isInfinite(fanOut)) {
            throw new IllegalArgumentException("fanOut of causal pair '" + name + "' must be a finite number > 0, was " + fanOut);
        }
    }

    /**
     * A one-to-one pair.
     *
     * @param name              pair name
     * @param incomingOperation incoming operation
     * @param outgoingOperation outgoing operation
     * @return the pair with fan-out 1
     */
    public static CausalPair of(String name, String incomingOperation, String outgoingOperation) {
        return new CausalPair(name, incomingOperation, outgoingOperation, 1.0);
    }

    private static void requireText(String value, String field) {
        Objects.requireNonNull(value, field);
        if (value.isBlank()) {
            throw new IllegalArgumentException("causal pair " + field + " must not be blank");
        }
    }
}
