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
    // Versioned reply contexts this connection has been sent (ReplyContextProvider.contextVersion):
    // the first context id in two fields (the load report: read on every reply, so no map and no
    // boxing), any others in a map made when needed. Races between reply threads at most send a
    // version twice.
    private volatile int firstContextId;
    private volatile long firstVersionSent = Long.MIN_VALUE;
    private volatile java.util.concurrent.ConcurrentHashMap<Integer, Long> otherVersionsSent;

    private final InboundConnection inbound;

    IrmiServerGIOPConnection(ChannelTransport transport, RequestListener requestListener, InboundConnection inbound) {
        super(null, transport, requestListener, new NoBiDirServerReplyListener(), null, null);
        this.inbound = inbound;
        this.connectionId = inbound.id;
        this.peerAddress = inbound.peerAddress;
    }

    /** A request of this connection finished (reply, exception, oneway): the transport stops counting its bytes. */
    void requestFinished(int requestId) {
        inbound.requestFinished(requestId);
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
        int first = firstContextId;
        if (first == 0) {
            firstContextId = contextId;
            first = contextId;
        }
        if (first == contextId) {
            if (firstVersionSent == version) {
                return false;
            }
            firstVersionSent = version;
            return true;
        }
        java.util.concurrent.ConcurrentHashMap<Integer, Long> others = otherVersionsSent;
        if (others == null) {
            synchronized (this) {
                others = otherVersionsSent;
                if (others == null) {
                    others = new java.util.concurrent.ConcurrentHashMap<>(4);
                    otherVersionsSent = others;
                }
            }
        }
        Long sent = others.put(contextId, version);
        return sent == null || sent != version;
    }

    @Override
    public String toString() {
        return "IrmiServerGIOPConnection#" + connectionId + " from " + peerAddress;
    }
}
