package org.irmi.bench.experiments.internal.crosstalk;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

import org.jacorb.orb.factory.ServerSocketFactory;

/**
 * A JacORB server socket factory ({@code jacorb.net.server_socket_factory}) that changes nothing
 * about the sockets and only watches what JacORB's reader threads read: it follows the GIOP
 * framing of the byte stream and tells {@link AssemblyClock} how long each message took from the
 * read that returned its first byte to the read that returned its last. This is how the crosstalk
 * experiment measures plain JacORB at the IIOP level, where the paper measured WebSphere's.
 */
public final class TimingServerSocketFactory implements ServerSocketFactory {

    public TimingServerSocketFactory() {
    }

    /** JacORB looks for this constructor first. */
    public TimingServerSocketFactory(org.jacorb.orb.ORB orb) {
    }

    @Override
    public ServerSocket createServerSocket(int port) throws IOException {
        return new TimingServerSocket(port, 50, null);
    }

    @Override
    public ServerSocket createServerSocket(int port, int backlog) throws IOException {
        return new TimingServerSocket(port, backlog, null);
    }

    @Override
    public ServerSocket createServerSocket(int port, int backlog, InetAddress address) throws IOException {
        return new TimingServerSocket(port, backlog, address);
    }

    private static final class TimingServerSocket extends ServerSocket {

        TimingServerSocket(int port, int backlog, InetAddress address) throws IOException {
            super(port, backlog, address);
        }

        @Override
        public Socket accept() throws IOException {
            Socket socket = new TimingSocket();
            implAccept(socket);
            return socket;
        }
    }

    private static final class TimingSocket extends Socket {

        private InputStream in;

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (in == null) {
                in = new GiopTimingStream(super.getInputStream());
            }
            return in;
        }
    }

    /** Follows GIOP framing: a 12-byte header whose last 4 bytes give the body size. */
    static final class GiopTimingStream extends FilterInputStream {

        private final byte[] header = new byte[12];
        private int headerFill;
        private long bodyLeft;
        private long messageBytes;
        private long firstByteNanos;

        GiopTimingStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                observe(new byte[] {(byte) b}, 0, 1, System.nanoTime());
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                observe(b, off, n, System.nanoTime());
            }
            return n;
        }

        /** Accounts for {@code n} bytes just read at {@code now}. */
        void observe(byte[] b, int off, int n, long now) {
            int i = off;
            int end = off + n;
            while (i < end) {
                if (bodyLeft == 0 && headerFill < 12) {
                    if (headerFill == 0) {
                        firstByteNanos = now;
                    }
                    int take = Math.min(12 - headerFill, end - i);
                    System.arraycopy(b, i, header, headerFill, take);
                    headerFill += take;
                    i += take;
                    if (headerFill < 12) {
                        return;
                    }
                    boolean little = (header[6] & 1) != 0;
                    long size = little
                            ? (header[8] & 0xFFL) | (header[9] & 0xFFL) << 8 | (header[10] & 0xFFL) << 16 | (header[11] & 0xFFL) << 24
                            : (header[8] & 0xFFL) << 24 | (header[9] & 0xFFL) << 16 | (header[10] & 0xFFL) << 8 | (header[11] & 0xFFL);
                    messageBytes = 12 + size;
                    bodyLeft = size;
                    if (bodyLeft == 0) {
                        done(now);
                    }
                    continue;
                }
                int take = (int) Math.min(bodyLeft, end - i);
                bodyLeft -= take;
                i += take;
                if (bodyLeft == 0) {
                    done(now);
                }
            }
        }

        private void done(long now) {
            AssemblyClock.record(messageBytes, now - firstByteNanos);
            headerFill = 0;
        }
    }
}
