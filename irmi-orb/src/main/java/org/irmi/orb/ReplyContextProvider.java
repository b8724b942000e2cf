package org.irmi.orb;

/**
 * Supplies a service context the server attaches to replies: normal replies, user and system
 * exception replies, and the replies the reader thread makes for early rejections.
 *
 * <p>THREADING: called on dispatch threads and on the selector thread; must not block.
 */
public interface ReplyContextProvider {

    /** The service context id (for example a vendor-assigned id). */
    int contextId();

    /**
     * The context data (CDR encapsulation or any bytes the reader understands) for a reply to
     * {@code operation}, or null to attach nothing to this reply.
     */
    byte[] contextData(String operation, boolean exceptionReply);
}
