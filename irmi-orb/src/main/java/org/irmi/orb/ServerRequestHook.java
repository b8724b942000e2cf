package org.irmi.orb;

import java.util.Optional;

/**
 * Called on the selector reader thread for every request once its header is parsed, before the
 * request takes a queue slot or a worker. Returning a rejection answers the request at once with
 * that system exception (oneway requests are dropped); nothing is dispatched.
 *
 * <p>THREADING: SELECTOR THREAD ONLY. It must never block, sleep or do I/O: every connection of
 * the server waits while it runs.
 */
@FunctionalInterface
public interface ServerRequestHook {

    /** Decide for one request: empty to let it through, a rejection to answer it now. */
    Optional<Rejection> onRequest(RequestHeader header);

    /**
     * Decide for one request with the forward option too: a {@link ServerVerdict#forward} is
     * answered at once with a GIOP LOCATION_FORWARD reply. The default asks {@link #onRequest}.
     */
    default ServerVerdict decide(RequestHeader header) {
        Optional<Rejection> r = onRequest(header);
        return r == null || r.isEmpty() ? ServerVerdict.PROCEED : ServerVerdict.reject(r.get());
    }
}
