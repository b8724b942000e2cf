package org.irmi.monitors;

import java.util.Objects;

/**
 * A request stream: one client calling one operation on one object. Streams are what the per-request
 * cost monitor accounts, so that one client's expensive requests stand out from everyone else's.
 *
 * @param objectKey the target object (e.g. its object key as text)
 * @param operation the operation name
 * @param client    the client (e.g. its remote address)
 */
public record StreamKey(String objectKey, String operation, String client) {

    /** The stream every request falls into once the stream table is full. */
    public static final StreamKey OVERFLOW = new StreamKey("*", "*", "*");

    /** Rejects null fields. */
    public StreamKey {
        Objects.requireNonNull(objectKey, "objectKey");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(client, "client");
    }
}
