package org.irmi.orb.internal;

import org.jacorb.orb.giop.RequestListener;
import org.jacorb.orb.giop.NoBiDirServerReplyListener;
import org.jacorb.orb.giop.ServerGIOPConnection;

/**
 * JacORB's server connection object for one selector-read connection. JacORB uses it to write
 * replies (through {@link ChannelTransport}) and to keep code sets; it never reads from it.
 * It also tells the interceptors which transport connection and peer a request came from.
 */
public final class IrmiServerGIOPConnection extends ServerGIOPConnection {

    private final long connectionId;
    private final String peerAddress;
    /** Versioned reply contexts (id to version) this connection has been sent; see ReplyContextProvider.contextVersion. */
    private final java.util.concurrent.ConcurrentHashMap<Integer, Long> contextVersionsSent =
            new java.util.concurrent.ConcurrentHashMap<>(4);

    IrmiServerGIOPConnection(ChannelTransport transport, RequestListener requestListener, long connectionId,
                             String peerAddress) {
        super(null, transport, requestListener, new NoBiDirServerReplyListener(), null, null);
        this.connectionId = connectionId;
        this.peerAddress = peerAddress;
    }

    /** The selector transport's id of this connection. */
    public long connectionId() {
        return connectionId;
    }

    /** The client's {@code host:port}. */
    public String peerAddress() {
        return peerAddress;
    }

    /**
     * Whether a reply on this connection is to carry version {@code version} of context
     * {@code contextId}: true the first time for each version (and records it as sent).
     */
    boolean takeContextVersion(int contextId, long version) {
        Long sent = contextVersionsSent.get(contextId);
        if (sent != null && sent == version) {
            return false;
        }
        contextVersionsSent.put(contextId, version);
        return true;
    }

    @Override
    public String toString() {
        return "IrmiServerGIOPConnection#" + connectionId + " from " + peerAddress;
    }
}
