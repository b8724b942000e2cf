package org.irmi.isolation;

import java.util.Objects;
import org.irmi.monitors.StreamKey;

/**
 * The server reader thread's view of one request, taken once the GIOP request header is parsed
 * and before the request is queued or dispatched.
 *
 * @param connectionId     the ORB's id of the connection (unique while it is open)
 * @param requestId        the GIOP request id (unique per connection)
 * @param peer             the client's address, {@code host:port}
 * @param objectKey        the target object key, as ISO-8859-1 text
 * @param operation        the operation name
 * @param messageBytes     the size of the whole request message (all fragments when known)
 * @param responseExpected false for oneways
 * @param tag              the value of the I-RMI stream-tag service context, or null
 * @param argumentBytes    the first bytes of the request body after the header (for signatures),
 *                         or null when the point asked for none; must not be modified
 */
public record IncomingRequest(long connectionId, int requestId, String peer, String objectKey,
                              String operation, int messageBytes, boolean responseExpected,
                              String tag, byte[] argumentBytes) {
    public IncomingRequest {
        Objects.requireNonNull(peer, "peer");
        Objects.requireNonNull(objectKey, "objectKey");
        Objects.requireNonNull(operation, "operation");
    }

    /** @return a key unique among requests in flight: the connection id and the request id. */
    public long requestKey() {
        return requestKey(connectionId, requestId);
    }

    /** @return the in-flight key for a connection id and a GIOP request id. */
    public static long requestKey(long connectionId, int requestId) {
        return (connectionId << 32) ^ (requestId & 0xFFFFFFFFL);
    }

    /** @return the stream this request belongs to. */
    public StreamKey stream() {
        return new StreamKey(objectKey, operation, peer);
    }
}
