package org.irmi.orb;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Connections that each sent the first 2 bytes of a GIOP header ({@code "GI"}) and then nothing:
 * the stalled clients of issue 38. They hold their server-side connection until closed.
 */
final class StalledSockets implements AutoCloseable {

    private final List<Socket> sockets;
    /** When the last of them was opened. */
    private long lastOpenedNanos;

    private StalledSockets(List<Socket> sockets) {
        this.sockets = sockets;
    }

    /**
     * Opens {@code count} connections to {@code port} on loopback from {@code from} (a local address
     * such as 127.0.0.2, so that they come from a host of their own; null for any), each sending 2 bytes.
     */
    static StalledSockets open(int port, int count, InetAddress from) throws IOException {
        List<Socket> sockets = new ArrayList<>(count);
        StalledSockets s = new StalledSockets(sockets);
        try {
            for (int i = 0; i < count; i++) {
                Socket socket = new Socket();
                sockets.add(socket);
                if (from != null) {
                    socket.bind(new InetSocketAddress(from, 0));
                }
                socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
                OutputStream out = socket.getOutputStream();
                out.write("GI".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
            s.lastOpenedNanos = System.nanoTime();
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
        return s;
    }

    /**
     * Returns once the last of them was opened more than {@code graceMillis} ago: a server sheds a
     * connection that never completed a message only after such a grace (a newcomer's time to send
     * its first message), so a test that wants them shed waits for it to pass.
     */
    void awaitOlderThan(long graceMillis) throws InterruptedException {
        long remainingMillis = graceMillis + 100 - (System.nanoTime() - lastOpenedNanos) / 1_000_000;
        if (remainingMillis > 0) {
            Thread.sleep(remainingMillis); // the condition is the clock's: no event to wait for
        }
    }

    int size() {
        return sockets.size();
    }

    /** How many of them the server has closed (a read sees end of stream or a reset), reading each without waiting long. */
    int closedByServer() throws IOException {
        int closed = 0;
        for (Socket socket : sockets) {
            socket.setSoTimeout(1);
            try {
                if (socket.getInputStream().read() < 0) {
                    closed++;
                }
            } catch (java.net.SocketTimeoutException open) {
                // still open
            } catch (IOException reset) {
                closed++;
            }
        }
        return closed;
    }

    @Override
    public void close() {
        for (Socket socket : sockets) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
