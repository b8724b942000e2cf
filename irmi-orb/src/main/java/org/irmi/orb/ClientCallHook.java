package org.irmi.orb;

/**
 * Sees every outgoing call of an I-RMI client ORB and decides whether it proceeds, fails or is
 * forwarded.
 *
 * <p>THREADING: called on the application thread that makes the call, concurrently from many
 * threads. It must be fast and must not block.
 */
@FunctionalInterface
public interface ClientCallHook {

    /** Decide for one call. Never returns null. */
    ClientDecision beforeCall(ClientCall call);
}
