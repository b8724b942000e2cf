package org.irmi.orb;

/**
 * Receives a service context found on replies at the client, for every reply that carries it
 * (including exception replies).
 *
 * <p>THREADING: called on the application thread that made the call; must not block.
 */
public interface ReplyContextListener {

    /** The service context id to look for. */
    int contextId();

    /**
     * One reply carried the context.
     *
     * @param targetKey the target as in {@link ClientCall#targetKey()}
     * @param operation the operation that was called
     * @param data      the context data as the server sent it
     */
    void onReplyContext(String targetKey, String operation, byte[] data);
}
