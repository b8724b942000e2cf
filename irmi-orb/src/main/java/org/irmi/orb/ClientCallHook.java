package org.irmi.orb;

/**
 * Sees every outgoing call of an I-RMI client ORB and decides whether it proceeds, fails, is
 * forwarded or (RMI only) completes locally; then hears how each call that was sent ended.
 *
 * <p>THREADING: called on the application thread that makes the call, concurrently from many
 * threads. It must be fast and must not block.
 */
public interface ClientCallHook {

    /** Decide for one call. Never returns null. */
    ClientDecision beforeCall(ClientCall call);

    /**
     * A call that was sent has ended (not called for calls the hook failed or short-circuited).
     * Reply service contexts of the call were delivered to the reply context listeners just before.
     *
     * @param roundTripNanos from the hook's decision to the end of the call
     * @param outcome        how the call ended, as the client saw it: never {@link CallOutcome#ONEWAY}
     */
    default void afterCall(ClientCall call, long roundTripNanos, CallOutcome outcome) {
    }
}
