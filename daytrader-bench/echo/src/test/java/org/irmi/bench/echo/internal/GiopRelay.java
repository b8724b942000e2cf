package org.irmi.bench.echo.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay for tests that forwards bytes both ways unchanged and records the GIOP header of
 * every message the client sends, so a test can see on the wire what version the client speaks
 * and whether it fragments.
 */
final class GiopRelay implements AutoCloseable {

    /** GIOP message type Request. */
    static final int REQUEST = 0;
    /** GIOP message type Fragment. */
    static final int FRAGMENT = 7;

    /**
     * One GIOP header as sent by the client.
     *
     * @param major  GIOP major version
     * @param minor  GIOP minor version
     * @param flags  the flags octet (bit 0 little endian, bit 1 more fragments follow)
     * @param type   the message type
     * @param size   the declared body size
     */
    record Header(int major, int minor, int flags, int type, long size) {
        boolean moreFragments() {
            return (flags & 2) != 0;
        }
    }

    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final List<Header> clientHeaders = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile String parseError;

    GiopRelay(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "giop-relay-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    List<Header> clientHeaders() {
        return List.copyOf(clientHeaders);
    }

    /** Null while every client byte parsed as GIOP. */
    String parseError() {
        return parseError;
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket(targetHost, targetPort);
                sockets.add(client);
                sockets.add(upstream);
                start(() -> pump(client, upstream, true));
                start(() -> pump(upstream, client, false));
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void start(Runnable r) {
        Thread t = new Thread(r, "giop-relay-pump");
        t.setDaemon(true);
        t.start();
    }

    private void pump(Socket from, Socket to, boolean parse) {
        byte[] buf = new byte[64 * 1024];
        byte[] header = new byte[12];
        int headerFill = 0;
        long bodyLeft = 0;
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buf)) > 0) {
                out.write(buf, 0, n);
                out.flush();
                if (!parse || parseError != null) {
                    continue;
                }
                int i = 0;
                while (i < n) {
                    if (bodyLeft > 0) {
                        int skip = (int) Math.min(bodyLeft, n - i);
                        bodyLeft -= skip;
                        i += skip;
                        continue;
                    }
                    header[headerFill++] = buf[i++];
                    if (headerFill == 12) {
                        headerFill = 0;
                        if (header[0] != 'G' || header[1] != 'I' || header[2] != 'O' || header[3] != 'P') {
                            parseError = "bytes that are not a GIOP header after " + clientHeaders.size() + " messages";
                            break;
                        }
                        boolean little = (header[6] & 1) != 0;
                        long size = little
                                ? (header[8] & 0xffL) | (header[9] & 0xffL) << 8 | (header[10] & 0xffL) << 16 | (header[11] & 0xffL) << 24
                                : (header[11] & 0xffL) | (header[10] & 0xffL) << 8 | (header[9] & 0xffL) << 16 | (header[8] & 0xffL) << 24;
                        clientHeaders.add(new Header(header[4], header[5], header[6] & 0xff, header[7], size));
                        bodyLeft = size;
                    }
                }
            }
        } catch (IOException e) {
            // the other side closed; the relay for this connection ends
        } finally {
            close(from);
            close(to);
        }
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        new ArrayList<>(sockets).forEach(GiopRelay::close);
    }
}
