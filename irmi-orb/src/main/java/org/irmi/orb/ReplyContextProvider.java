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

    /**
     * For data that changes at known moments: a version that changes whenever the data does, or
     * -1 (the default) to be asked for every reply. With a version, the ORB attaches the context
     * to a normal or exception reply only when that connection has not been sent this version yet,
     * so a client sees every change on its next reply while unchanged data is not sent again and
     * again. Early rejections from the reader thread always carry the context.
     */
    default long contextVersion() {
        return -1;
    }
}
