package org.irmi.isolation;

import java.util.Objects;

/**
 * A request stream: which object, which operation, which client. Accounting and decision events
 * name streams, not ORB components. Never used as a metric tag (unbounded).
 *
 * @param objectKey the target's object key (or the outgoing target's name on the client side)
 * @param operation the operation name
 * @param client    the client's address ({@code host:port}), or the target host on the client side
 */
public record StreamKey(String objectKey, String operation, String client) {
    public StreamKey {
        Objects.requireNonNull(objectKey, "objectKey");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(client, "client");
    }

    @Override
    public String toString() {
        return objectKey + "/" + operation + "@" + client;
    }
}
