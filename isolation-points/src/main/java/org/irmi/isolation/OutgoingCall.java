package org.irmi.isolation;

import java.util.Objects;
import org.irmi.monitors.StreamKey;
import org.irmi.sla.OperationPattern;

/**
 * The client hook's view of one outgoing call, taken before its arguments are marshalled.
 *
 * @param targetHost         the host of the target's profile (the remote node)
 * @param targetPort         its port
 * @param objectKey          the target's object key, as ISO-8859-1 text
 * @param operation          the operation name
 * @param oneway             whether no reply is expected
 * @param arguments          the call's arguments if the hook can see them (RMI-IIOP dynamic
 *                           stubs), otherwise null; needed only by {@link Decision.Degrade}
 * @param argumentBytesHint  an estimate of the marshalled size, or -1 when unknown
 */
public record OutgoingCall(String targetHost, int targetPort, String objectKey, String operation,
                           boolean oneway, Object[] arguments, long argumentBytesHint) {
    public OutgoingCall {
        Objects.requireNonNull(targetHost, "targetHost");
        Objects.requireNonNull(objectKey, "objectKey");
        Objects.requireNonNull(operation, "operation");
    }

    /** @return a view without arguments and without a size hint. */
    public static OutgoingCall of(String targetHost, int targetPort, String objectKey,
                                  String operation, boolean oneway) {
        return new OutgoingCall(targetHost, targetPort, objectKey, operation, oneway, null, -1);
    }

    /**
     * @return whether a target glob (a causal pair's {@code target}) names this call's target: its
     *         host, its {@code host:port} or its object key
     */
    public boolean targetMatches(OperationPattern target) {
        return target == OperationPattern.ANY || target.matches(targetHost) || target.matches(objectKey)
                || target.matches(targetHost + ":" + targetPort);
    }

    /** @return the stream this call belongs to (object key, operation, target host). */
    public StreamKey stream() {
        return new StreamKey(objectKey, operation, targetHost + ":" + targetPort);
    }
}
