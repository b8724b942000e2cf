package org.irmi.orb;

import java.util.Objects;

/**
 * What the client hook decides for one call.
 *
 * @param kind        proceed, fail, forward or short-circuit
 * @param rejection   the system exception to fail with ({@link Kind#FAIL} only)
 * @param forwardTo   a stringified object reference (IOR or corbaloc) to send the call to instead
 *                    ({@link Kind#FORWARD} only)
 * @param result      the value an RMI call returns without being sent ({@link Kind#SHORT_CIRCUIT}
 *                    only; null is allowed and means null, or the primitive default)
 */
public record ClientDecision(Kind kind, Rejection rejection, String forwardTo, Object result) {

    /** The outcomes a client hook can choose. */
    public enum Kind { PROCEED, FAIL, FORWARD, SHORT_CIRCUIT }

    /** Minor code of the TRANSIENT an IDL call gets when a hook short-circuits it (not possible there). */
    public static final int MINOR_SHORT_CIRCUIT_UNSUPPORTED = org.irmi.isolation.MinorCodes.SHORT_CIRCUIT_UNSUPPORTED;

    private static final ClientDecision PROCEED = new ClientDecision(Kind.PROCEED, null, null, null);

    public ClientDecision {
        Objects.requireNonNull(kind, "kind");
        if (kind == Kind.FAIL && rejection == null) {
            throw new IllegalArgumentException("a FAIL decision needs a rejection");
        }
        if (kind == Kind.FORWARD && (forwardTo == null || forwardTo.isEmpty())) {
            throw new IllegalArgumentException("a FORWARD decision needs a target reference");
        }
    }

    /** Let the call go on unchanged. */
    public static ClientDecision proceed() {
        return PROCEED;
    }

    /** Fail the call at once with the given system exception; nothing is sent. */
    public static ClientDecision fail(Rejection rejection) {
        return new ClientDecision(Kind.FAIL, rejection, null, null);
    }

    /** Send this call to another object (an IOR or corbaloc string). */
    public static ClientDecision forward(String objectReference) {
        return new ClientDecision(Kind.FORWARD, null, objectReference, null);
    }

    /**
     * Complete the call locally with {@code result}; nothing is sent. Works for RMI-IIOP calls
     * (I-RMI dynamic stubs). IDL stubs have no point before marshalling where a result can be
     * returned (JacORB's Delegate is final), so there the call fails with TRANSIENT
     * {@link #MINOR_SHORT_CIRCUIT_UNSUPPORTED}.
     */
    public static ClientDecision shortCircuit(Object result) {
        return new ClientDecision(Kind.SHORT_CIRCUIT, null, null, result);
    }
}
