package org.irmi.orb.internal;

import java.nio.ByteBuffer;

import org.jacorb.config.Configuration;
import org.jacorb.config.ConfigurationException;
import org.jacorb.orb.iiop.IIOPAddress;
import org.jacorb.orb.iiop.IIOPProfile;
import org.omg.CORBA.NO_IMPLEMENT;
import org.omg.ETF.BufferHolder;
import org.omg.ETF.Profile;

/**
 * The ETF connection JacORB's {@code ServerGIOPConnection} writes replies to. It is write-only:
 * reading belongs to the selector thread. JacORB holds its connection write lock from the first
 * chunk of a message to {@link #flush()}; in between, messages the reader thread writes itself
 * wait (see {@link InboundConnection#send}), so they never interleave with a reply.
 */
final class ChannelTransport extends org.omg.ETF._ConnectionLocalBase {

    private final InboundConnection connection;
    private final Configuration configuration;
    private volatile Profile peerProfile;
    /** The next chunk written starts a message. Guarded by JacORB's connection write lock (first chunk to flush). */
    private volatile boolean atMessageStart = true;

    ChannelTransport(InboundConnection connection, Configuration configuration) {
        this.connection = connection;
        this.configuration = configuration;
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
        connection.writeChunk(data, offset, length);
    }

    @Override
    public void flush() {
        atMessageStart = true;
        connection.endMessage();
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
    public Profile get_server_profile() {
        Profile p = peerProfile;
        if (p == null) {
            String peer = connection.peerAddress;
            int colon = peer.lastIndexOf(':');
            IIOPAddress address = new IIOPAddress(peer.substring(0, colon), Integer.parseInt(peer.substring(colon + 1)));
            try {
                address.configure(configuration);
                IIOPProfile profile = new IIOPProfile(address, null, configuration.getORB().getGIOPMinorVersion());
                profile.configure(configuration);
                p = profile;
            } catch (ConfigurationException e) {
                throw new org.omg.CORBA.INTERNAL("cannot describe peer " + peer + ": " + e.getMessage());
            }
            peerProfile = p;
        }
        return p;
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
}
