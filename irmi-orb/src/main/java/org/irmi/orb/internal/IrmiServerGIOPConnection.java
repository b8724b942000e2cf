package org.irmi.orb.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.jacorb.orb.giop.GIOPConnection;
import org.jacorb.orb.giop.ReplyListener;
import org.jacorb.orb.giop.RequestListener;
import org.jacorb.orb.giop.NoBiDirServerReplyListener;
import org.jacorb.orb.giop.ServerGIOPConnection;

/**
 * JacORB's server connection object for one selector-read connection. JacORB uses it to write
 * replies (through {@link ChannelTransport}) and to keep code sets; it never reads from it.
 * It also tells the interceptors which transport connection and peer a request came from.
 */
public final class IrmiServerGIOPConnection extends ServerGIOPConnection {

    /**
     * JacORB's reply listener of a connection: the {@code ClientConnection} that bi-directional GIOP
     * puts on a server connection to send callbacks over it. JacORB reads it only in its own reader
     * loop (the getter is private); the selector transport has its own reader, so it reads the field.
     */
    private static final VarHandle REPLY_LISTENER;

    /**
     * The state of JacORB's own reader loop ({@code GIOPConnection.getMessage} and
     * {@code receiveMessages}): the fragment maps and the header and message holders. That loop never
     * runs on a selector-read connection (the selector transport reads and reassembles), yet
     * JacORB's constructor makes them for every connection: 160 bytes of an idle connection's heap.
     * They are released at construction. Should JacORB's reader ever run on such a connection, it
     * stops at once with a {@code NullPointerException} rather than reading with shared state.
     */
    private static final String[] READER_ONLY_FIELDS = {"fragments", "fragmentsSize", "msg_header", "inbuf"};
    private static final java.lang.reflect.Field[] READER_ONLY;
    /**
     * JacORB's per-connection array of "cubbyholes" (slots other layers register at start-up). When
     * none is registered it is empty, and one empty array serves every connection.
     */
    private static final java.lang.reflect.Field CUBBYHOLES;
    private static final Object[] NO_CUBBYHOLES = new Object[0];

    static {
        try {
            REPLY_LISTENER = MethodHandles.privateLookupIn(GIOPConnection.class, MethodHandles.lookup())
                    .findVarHandle(GIOPConnection.class, "reply_listener", ReplyListener.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError("JacORB's GIOPConnection has no reply_listener field: " + e);
        }
        java.lang.reflect.Field[] fields = new java.lang.reflect.Field[READER_ONLY_FIELDS.length];
        try {
            for (int i = 0; i < fields.length; i++) {
                fields[i] = GIOPConnection.class.getDeclaredField(READER_ONLY_FIELDS[i]);
                fields[i].setAccessible(true);
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            fields = null; // another JacORB: its reader state is kept, nothing else changes
        }
        READER_ONLY = fields;
        java.lang.reflect.Field cubby;
        try {
            cubby = GIOPConnection.class.getDeclaredField("cubbyholes");
            cubby.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            cubby = null;
        }
        CUBBYHOLES = cubby;
    }
    // Versioned reply contexts this connection has been sent (ReplyContextProvider.contextVersion):
    // the first context id in two fields (the load report: read on every reply, so no map and no
    // boxing), any others in a map made when needed. Races between reply threads at most send a
    // version twice.
    private volatile int firstContextId;
    private volatile long firstVersionSent = Long.MIN_VALUE;
    private volatile java.util.concurrent.ConcurrentHashMap<Integer, Long> otherVersionsSent;

    private final InboundConnection inbound;

    IrmiServerGIOPConnection(ChannelTransport transport, RequestListener requestListener, InboundConnection inbound) {
        // the peer's profile, as JacORB's own server connections have it (bi-directional GIOP reads it)
        super(transport.get_server_profile(), transport, requestListener, new NoBiDirServerReplyListener(), null, null);
        this.inbound = inbound;
        releaseReaderState();
    }

    private void releaseReaderState() {
        if (CUBBYHOLES != null) {
            try {
                if (((Object[]) CUBBYHOLES.get(this)).length == 0) {
                    CUBBYHOLES.set(this, NO_CUBBYHOLES); // none registered: every connection shares the empty array
                }
            } catch (IllegalAccessException | RuntimeException e) {
                // kept as JacORB made it
            }
        }
        if (READER_ONLY == null) {
            return;
        }
        try {
            for (java.lang.reflect.Field f : READER_ONLY) {
                f.set(this, null);
            }
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot release JacORB's reader state", e);
        }
    }

    /** A request of this connection finished (reply, exception, oneway): the transport stops counting its bytes. */
    void requestFinished(int requestId) {
        inbound.requestFinished(requestId);
    }

    /** A sampled request of this connection: see {@link CoreSamples#record}. Any thread. */
    void requestSampled(long activeNanos, long cpuNanos) {
        inbound.requestSampled(activeNanos, cpuNanos);
    }

    /**
     * Hands a Reply (or LocateReply) that arrived on this connection to the callbacks sent over it
     * (bi-directional GIOP), as JacORB's reader loop does. Runs on a dispatch worker.
     *
     * @return false when no callback was ever sent over this connection (the reply is then a protocol error)
     */
    boolean replyReceived(byte[] message, boolean locateReply) {
        ReplyListener listener;
        synchronized (this) { // JacORB sets it under this lock
            listener = (ReplyListener) REPLY_LISTENER.get(this);
        }
        if (listener == null || listener instanceof NoBiDirServerReplyListener) {
            return false;
        }
        if (locateReply) {
            listener.locateReplyReceived(message, this);
        } else {
            listener.replyReceived(message, this);
        }
        return true;
    }

    /** The transport closed: tells the {@code tcp_listener}. Once, on the closing thread. */
    void transportClosed() {
        ((ChannelTransport) getTransport()).fireClosed();
    }

    /** The selector transport's id of this connection. */
    public long connectionId() {
        return inbound.id;
    }

    /** The client's {@code host:port}. */
    public String peerAddress() {
        return inbound.peerAddress;
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
        return "IrmiServerGIOPConnection#" + inbound.id + " from " + inbound.peerAddress;
    }
}
