package org.irmi.orb;

import java.util.Objects;

/**
 * What the client hook decides for one call.
 *
 * @param kind        proceed, fail or forward
 * @param rejection   the system exception to fail with ({@link Kind#FAIL} only)
 * @param forwardTo   a stringified object reference (IOR or corbaloc) to send the call to instead
 *                    ({@link Kind#FORWARD} only)
 */
public record ClientDecision(Kind kind, Rejection rejection, String forwardTo) {

    /** The three outcomes a client hook can choose. */
    public enum Kind { PROCEED, FAIL, FORWARD }

    private static final ClientDecision PROCEED = new ClientDecision(Kind.PROCEED, null, null);

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
        return new ClientDecision(Kind.FAIL, rejection, null);
    }

    /** Send this call to another object (an IOR or corbaloc string). */
    public static ClientDecision forward(String objectReference) {
        return new ClientDecision(Kind.FORWARD, null, objectReference);
    }
}
