package org.irmi.orb;

import java.util.Objects;

/**
 * What the reader-thread hook decides for one request (see {@link ServerRequestHook#decide}).
 *
 * @param kind       proceed, reject or forward
 * @param rejection  the system exception to answer with ({@link Kind#REJECT} only)
 * @param forwardTo  a stringified object reference ({@code IOR:...}) the client is told to use
 *                   instead, by a LOCATION_FORWARD reply ({@link Kind#FORWARD} only)
 */
public record ServerVerdict(Kind kind, Rejection rejection, String forwardTo) {

    /** The outcomes the reader thread can enforce. */
    public enum Kind { PROCEED, REJECT, FORWARD }

    /** Let the request be queued and dispatched. */
    public static final ServerVerdict PROCEED = new ServerVerdict(Kind.PROCEED, null, null);

    public ServerVerdict {
        Objects.requireNonNull(kind, "kind");
        if (kind == Kind.REJECT && rejection == null) {
            throw new IllegalArgumentException("a REJECT verdict needs a rejection");
        }
        if (kind == Kind.FORWARD && (forwardTo == null || !forwardTo.startsWith("IOR:"))) {
            throw new IllegalArgumentException("a FORWARD verdict needs a stringified IOR (IOR:...), got " + forwardTo);
        }
    }

    /** Answer at once with a system exception. */
    public static ServerVerdict reject(Rejection rejection) {
        return new ServerVerdict(Kind.REJECT, rejection, null);
    }

    /** Answer at once with LOCATION_FORWARD to {@code ior}; the client ORB retries there. */
    public static ServerVerdict forward(String ior) {
        return new ServerVerdict(Kind.FORWARD, null, ior);
    }
}
