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
     * @param call the call the reply belongs to (target host, port, key, operation)
     * @param data the context data as the server sent it
     */
    void onReplyContext(ClientCall call, byte[] data);
}
