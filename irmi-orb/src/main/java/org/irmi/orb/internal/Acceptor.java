package org.irmi.orb.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accepting: the listening sockets (the plain port, and the TLS port with
 * {@code jacorb.security.support_ssl}), a bounded burst of accepts per turn, the set-up of each
 * accepted connection, and what happens at a connection limit: at {@code max_server_connections},
 * or when accepting fails (out of file descriptors, usually), the connections that cost others are
 * shed to make room for the newcomer ({@link ConnectionShedding}); only when none may be shed is the
 * newcomer refused, or accepting backed off (the connections already open keep being served).
 *
 * <p>SELECTOR THREAD ONLY, except {@link #port}, {@link #tlsPort} and {@link #serverChannel} (any thread).
 */
final class Acceptor {

    /** Logged under the loop's name, as before the transport was split into files. */
    private static final Logger LOG = LoggerFactory.getLogger(SelectorLoop.class);
    private static final AtomicLong CONNECTION_IDS = new AtomicLong();
    private static final int ACCEPTS_PER_TURN = 256;
    /** How long accepting stops after it failed (out of file descriptors, usually). */
    static final long ACCEPT_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final SelectorLoop loop;
    private final Selector selector;
    /** The loop's open connections. */
    private final OpenConnections connections;
    private final Function<InboundConnection, IrmiServerGIOPConnection> giopFactory;
    /** What goes when a connection limit is reached. */
    private final ConnectionShedding shedding;
    private final ServerSocketChannel server;
    /** The listening socket's key: OP_ACCEPT off while accepting backs off. */
    private final SelectionKey acceptKey;
    /** The TLS port's socket and settings (null without {@code jacorb.security.support_ssl}). */
    private final ServerSocketChannel tlsServer;
    private final TlsSettings tls;
    private final SelectionKey tlsAcceptKey;
    /** When accepting resumes after a failure (0: not backing off). SELECTOR THREAD ONLY. */
    private long acceptResumeNanos;

    /**
     * Binds the listening sockets and registers them with {@code selector}.
     *
     * @param tls     TLS settings, or null for no TLS port
     * @param tlsPort the TLS port (0: a free one); ignored without {@code tls}
     */
    Acceptor(SelectorLoop loop, Selector selector, OpenConnections connections,
             Function<InboundConnection, IrmiServerGIOPConnection> giopFactory, InetAddress host, int port,
             TlsSettings tls, int tlsPort) throws IOException {
        this.loop = loop;
        this.selector = selector;
        this.connections = connections;
        this.giopFactory = giopFactory;
        TransportConfig config = loop.config;
        this.shedding = new ConnectionShedding(loop, connections, config.shedIdleAfterMillis());
        this.server = ServerSocketChannel.open();
        server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        server.bind(host == null ? new InetSocketAddress(port) : new InetSocketAddress(host, port),
                config.acceptBacklog());
        server.configureBlocking(false);
        acceptKey = server.register(selector, SelectionKey.OP_ACCEPT);
        this.tls = tls;
        if (tls != null) {
            tlsServer = ServerSocketChannel.open();
            tlsServer.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            tlsServer.bind(host == null ? new InetSocketAddress(tlsPort) : new InetSocketAddress(host, tlsPort),
                    config.acceptBacklog());
            tlsServer.configureBlocking(false);
            tlsAcceptKey = tlsServer.register(selector, SelectionKey.OP_ACCEPT);
        } else {
            tlsServer = null;
            tlsAcceptKey = null;
        }
    }

    ServerSocketChannel serverChannel() {
        return server;
    }

    int port() {
        return server.socket().getLocalPort();
    }

    int tlsPort() {
        return tlsServer == null ? -1 : tlsServer.socket().getLocalPort();
    }

    /**
     * Turns accepting back on when its back-off is over.
     *
     * @return how long the next select may wait: {@code waitMillis}, or less to end the back-off on time
     */
    long resumeIfDue(long nowNanos, long waitMillis) {
        if (acceptResumeNanos != 0) {
            if (nowNanos - acceptResumeNanos >= 0) {
                acceptResumeNanos = 0;
                acceptKey.interestOps(SelectionKey.OP_ACCEPT);
                if (tlsAcceptKey != null) {
                    tlsAcceptKey.interestOps(SelectionKey.OP_ACCEPT);
                }
            } else {
                waitMillis = Math.min(waitMillis, Math.max(1, TimeUnit.NANOSECONDS.toMillis(acceptResumeNanos - nowNanos)));
            }
        }
        return waitMillis;
    }

    /** {@code key}, one of the listening sockets' keys, is acceptable: accepts a burst on its port. */
    void accept(SelectionKey key, long nowNanos) {
        acceptBurst(key == tlsAcceptKey ? tlsServer : server, key == tlsAcceptKey ? tls : null, nowNanos);
    }

    private void acceptBurst(ServerSocketChannel listening, TlsSettings tlsOfPort, long nowNanos) {
        for (int i = 0; i < ACCEPTS_PER_TURN; i++) {
            SocketChannel ch;
            try {
                ch = listening.accept();
            } catch (IOException e) {
                // Out of file descriptors, usually. The connections that cost others make room: their
                // descriptors are freed when the next select deregisters them, and the next turn
                // accepts again.
                loop.counters.acceptFailures.add(1);
                int shed = shedding.shed(nowNanos);
                if (shed > 0) {
                    loop.badInput.note("accept failed ({}); shed {} connections to make room", e.toString(), shed);
                    return;
                }
                // None to shed: the pending connection stays pending and the server socket stays
                // ready, so retrying at once would spin the loop (and, logged each time, flood the
                // log). Stop accepting for a while; the connections already open keep being served.
                loop.badInput.note("accept failed ({}); not accepting for {} ms", e.toString(),
                        TimeUnit.NANOSECONDS.toMillis(ACCEPT_BACKOFF_NANOS));
                acceptKey.interestOps(0);
                if (tlsAcceptKey != null) {
                    tlsAcceptKey.interestOps(0);
                }
                acceptResumeNanos = nowNanos + ACCEPT_BACKOFF_NANOS;
                if (acceptResumeNanos == 0) {
                    acceptResumeNanos = 1;
                }
                return;
            }
            if (ch == null) {
                return;
            }
            if ((tlsOfPort == null && tls != null && tls.required()) || !roomFor(nowNanos)) {
                // plain text where the target requires TLS; or at the maximum with nobody to shed
                loop.counters.refused.add(1);
                closeQuietly(ch);
                continue;
            }
            try {
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                if (loop.config.receiveBufferBytes() > 0) {
                    ch.setOption(StandardSocketOptions.SO_RCVBUF, loop.config.receiveBufferBytes());
                }
                InetSocketAddress remote = (InetSocketAddress) ch.getRemoteAddress();
                InboundConnection c = new InboundConnection(CONNECTION_IDS.incrementAndGet(), ch,
                        remote.getAddress().getHostAddress(), remote.getPort(), loop, loop.defaultReadBudget(), nowNanos,
                        tlsOfPort);
                c.giop = giopFactory.apply(c);
                c.key = ch.register(selector, SelectionKey.OP_READ, c);
                connections.add(c);
                loop.counters.accepted.add(1);
                connections.onStreamActive();
            } catch (IOException | RuntimeException e) {
                LOG.warn("could not set up accepted connection: {}", e.toString());
                closeQuietly(ch);
            }
        }
    }

    /**
     * True when one more connection may be served: below {@code max_server_connections}, or at it once
     * the connections that cost others were shed. At 0 every connection is refused, as in JacORB.
     */
    private boolean roomFor(long nowNanos) {
        int max = loop.config.maxServerConnections();
        if (connections.size() < max) {
            return true;
        }
        return max > 0 && shedding.shed(nowNanos) > 0 && connections.size() < max;
    }

    /** Closes the plain port's listening socket (an orderly shutdown began): no more connections. */
    void stopAccepting() {
        closeQuietly(server);
    }

    /** Closes the listening sockets. */
    void close() {
        closeQuietly(server);
        if (tlsServer != null) {
            closeQuietly(tlsServer);
        }
    }

    private static void closeQuietly(java.nio.channels.Channel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }
}
