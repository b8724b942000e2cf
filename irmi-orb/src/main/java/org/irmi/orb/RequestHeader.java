package org.irmi.orb;

import java.nio.ByteBuffer;
import java.util.Map;

/**
 * A request as the server sees it on the reader thread, once its GIOP header is parsed and before
 * it is queued or dispatched.
 *
 * @param connectionId      the server connection it arrived on (see {@link IrmiTransport})
 * @param peerAddress       the client's {@code host:port}
 * @param giopMinor         GIOP 1.x minor version of the message
 * @param requestId         the GIOP request id
 * @param responseExpected  false for oneway calls (a rejection then sends nothing)
 * @param operation         the operation name
 * @param objectKey         the target's object key (empty when addressed by profile or IOR)
 * @param messageBytes      the size of the whole (reassembled) message including its 12-byte header
 * @param serviceContexts   the request's service contexts, context id to context data (read-only)
 * @param arguments         a read-only view of the marshalled arguments (the request body), with
 *                          the message's byte order; position 0 is the first argument byte
 */
public record RequestHeader(long connectionId, String peerAddress, int giopMinor, int requestId,
                            boolean responseExpected, String operation, byte[] objectKey,
                            int messageBytes, Map<Integer, byte[]> serviceContexts,
                            ByteBuffer arguments) {

    /** The object key as text where it is printable, else as hex; for logs and stream names. */
    public String objectKeyString() {
        return Keys.toText(objectKey);
    }
}
