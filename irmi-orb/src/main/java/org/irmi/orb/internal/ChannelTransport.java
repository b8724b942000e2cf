package org.irmi.orb.internal;

import java.io.IOException;
import java.net.Socket;

import org.jacorb.config.Configuration;
import org.jacorb.config.ConfigurationException;
import org.jacorb.orb.iiop.IIOPAddress;
import org.jacorb.orb.iiop.IIOPProfile;
import org.jacorb.orb.iiop.ServerIIOPConnection;
import org.jacorb.orb.listener.TCPConnectionEvent;
import org.jacorb.orb.listener.TCPConnectionListener;
import org.omg.CORBA.NO_IMPLEMENT;
import org.omg.ETF.BufferHolder;
import org.omg.ETF.Profile;

/**
 * The ETF connection JacORB's {@code ServerGIOPConnection} writes replies to. It is write-only:
 * reading belongs to the selector thread. JacORB holds its connection write lock from the first
 * chunk of a message to {@link #flush()}; in between, messages the reader thread writes itself
 * wait (see {@link OutboundBuffer#send}), so they never interleave with a reply.
 *
 * <p>It is a {@link ServerIIOPConnection}, as the transport of every server connection of stock
 * JacORB is, because code written for JacORB relies on that: a server interceptor reaches the
 * client's socket through {@code ((ServerIIOPConnection) giopConnection.getTransport()).getSocket()}
 * (JacORB's documented way to learn the client's address), and bi-directional GIOP takes the
 * peer's profile from it. Nothing of the stream machinery it inherits is used: its socket
 * streams are dropped at construction, and every ETF method is overridden.
 */
final class ChannelTransport extends ServerIIOPConnection {

    private final InboundConnection connection;
    /** What the {@code tcp_listener}'s events carry; null when none is set (one field, not four, per connection). */
    private final Listening listening;
    /** The next chunk written starts a message. Guarded by JacORB's connection write lock (first chunk to flush). */
    private volatile boolean atMessageStart = true;

    /**
     * @param tcpListener JacORB's {@code jacorb.net.tcp_listener} (its null listener when none is set)
     */
    ChannelTransport(InboundConnection connection, Socket socket, TCPConnectionListener tcpListener) throws IOException {
        // isSSL() is what JacORB's server checks against jacorb.security.ssl.server.required_options
        super(socket, connection.wire instanceof TlsWire, tcpListener);
        this.connection = connection;
        // taken now: once the channel is closed its socket no longer knows its peer
        this.listening = tcpListener.isListenerEnabled() ? new Listening(tcpListener,
                socket.getInetAddress().getHostAddress(), socket.getPort(), socket.getLocalPort()) : null;
        // the superclass opened the socket's streams (and an 8 KB output buffer): never used here
        in_stream = null;
        out_stream = null;
    }

    /**
     * What JacORB's configure does, without its INFO line per connection: the peer's IIOP profile
     * (what {@link #get_server_profile()} returns, and bi-directional GIOP reads), the connection
     * description, the logger.
     */
    @Override
    public void configure(Configuration config) throws ConfigurationException {
        configuration = config;
        orb = config.getORB();
        logger = config.getLogger(getClass().getName());
        finalTimeout = config.getAttributeAsInteger("jacorb.connection.timeout_after_closeconnection", 20000);
        IIOPAddress address = new IIOPAddress(socket.getInetAddress().getHostAddress(), socket.getPort());
        address.configure(config);
        IIOPProfile peer = new IIOPProfile(address, null, orb.getGIOPMinorVersion());
        peer.configure(config);
        profile = peer;
        String info = address.toString();
        connection_info = info.equals(connection.peerAddress) ? connection.peerAddress : info; // one copy per connection
        connected = true;
    }

    /**
     * Tells the {@code tcp_listener} that this connection was opened. Called on the selector thread at
     * accept, before the connection is read (JacORB calls it on its acceptor thread, before the
     * connection's first request): the listener is to return quickly.
     */
    void fireOpened() {
        fire(true);
    }

    /** Tells the {@code tcp_listener} that this connection closed; on the thread that closed it, once. */
    void fireClosed() {
        fire(false);
    }

    private void fire(boolean opened) {
        Listening l = listening;
        if (l == null) {
            return;
        }
        TCPConnectionListener tcpListener = l.listener();
        TCPConnectionEvent e = new TCPConnectionEvent(this, l.remoteIp(), l.remotePort(), l.localPort(), getLocalhost());
        try {
            if (opened) {
                tcpListener.connectionOpened(e);
            } else {
                tcpListener.connectionClosed(e);
            }
        } catch (RuntimeException ex) {
            logger.warn("jacorb.net.tcp_listener {} failed: {}", tcpListener.getClass().getName(), ex.toString());
        }
    }

    @Override
    public void write(boolean isFirst, boolean isLast, byte[] data, int offset, int length, long timeout) {
        // Written at once where the socket takes it; what is left is copied, because JacORB
        // returns the chunk's buffer to its pool before it calls flush() (MessageOutputStream
        // closes itself in write_to). A reply to a connection that is gone is dropped.
        if (atMessageStart) {
            // Every reply JacORB writes ends its request, whether or not an interceptor saw it
            // (the transport's bytes and fair share of requests in flight count until then).
            // JacORB passes isFirst = false for every chunk, so the start is ours to track.
            atMessageStart = false;
            int requestId = Giop.replyRequestId(data, offset, length);
            if (requestId != -1) {
                connection.requestFinished(requestId);
            }
        }
        connection.out.writeChunk(data, offset, length);
    }

    @Override
    public void flush() {
        atMessageStart = true;
        connection.out.endMessage();
    }

    @Override
    public int read(BufferHolder data, int offset, int minLength, int maxLength, long timeout) {
        throw new NO_IMPLEMENT("I-RMI server connections are read by the selector thread");
    }

    @Override
    public void connect(Profile serverProfile, long timeout) {
        // The client opened this connection; there is nothing to connect. JacORB calls this when
        // is_connected() turns false before a reply is written; that reply is then dropped.
    }

    @Override
    public void close() {
        connection.close();
    }

    @Override
    public boolean is_connected() {
        return !connection.isClosed();
    }

    @Override
    public boolean is_data_available() {
        return false;
    }

    @Override
    public boolean wait_next_data(long timeout) {
        return false;
    }

    @Override
    public boolean supports_callback() {
        return false;
    }

    @Override
    public boolean use_handle_time_out() {
        return false;
    }

    /** The {@code tcp_listener} of a connection, and the peer it is told about. */
    private record Listening(TCPConnectionListener listener, String remoteIp, int remotePort, int localPort) {
    }
}
