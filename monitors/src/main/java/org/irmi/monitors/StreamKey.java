package org.irmi.monitors;

import java.util.Objects;

/**
 * A request stream: one client calling one operation on one object. Streams are what the per-request
 * cost monitor accounts, so that one client's expensive requests stand out from everyone else's, and
 * what the isolation points' decisions and events name (not ORB components). Never a metric tag: the
 * set is unbounded.
 *
 * @param objectKey the target object (its object key as text; on the client side, the outgoing
 *                  target's name)
 * @param operation the operation name
 * @param client    the client's address ({@code host:port}); on the client side, the target host
 *                  and port
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

    /** @return {@code objectKey/operation@client}, the form logs and decision events print */
    @Override
    public String toString() {
        return objectKey + "/" + operation + "@" + client;
    }
}
