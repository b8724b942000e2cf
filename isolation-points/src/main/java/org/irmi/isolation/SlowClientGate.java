package org.irmi.isolation;

/**
 * The slow-client point as the application's calls meet it: every outgoing call is decided before
 * its arguments are marshalled and reports how it ended, and every incoming call counts on the "in"
 * side of the causal pairs. Part of {@link SlowClientPoint}.
 *
 * <p>THREAD SAFETY: any thread; {@link #beforeMarshalling} is the hot path and reads only volatile
 * state unless its pair is triggered.
 */
public interface SlowClientGate {
    /**
     * The client hook: decides one outgoing call before its arguments are marshalled.
     *
     * @return {@link Decision#PROCEED} unless the call's pair or host is triggered
     */
    Decision beforeMarshalling(OutgoingCall call);

    /**
     * Reports how a call ended and the load report its reply carried.
     *
     * @param call      the call, as passed to {@link #beforeMarshalling}
     * @param rttNanos  its round trip
     * @param report    the target's load report, or null when the reply carried none
     */
    void onReply(OutgoingCall call, long rttNanos, RemoteLoad report);

    /** Counts one incoming call of {@code operation} (the "in" side of causal pairs). */
    void onIncoming(String operation);
}
