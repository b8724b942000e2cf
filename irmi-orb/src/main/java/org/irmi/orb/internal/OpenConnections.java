package org.irmi.orb.internal;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.irmi.orb.ConnectionView;
import org.irmi.orb.IrmiHooks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transport's open connections, by id: the periodic sweep that closes the stalled and the idle
 * ones, the per-connection settings and views of {@link org.irmi.orb.IrmiTransport}, what an
 * orderly shutdown asks of all of them, and the stream activity listener, told when a connection
 * opens or becomes active after a quiet spell.
 *
 * <p>THREADING: the registry is a concurrent map, read by any thread; connections are added by
 * the selector thread and removed by whichever thread closes them. {@link #sweep},
 * {@link #stopReading}, {@link #closeAllGracefully} and {@link #onStreamActive} run on the selector
 * thread only.
 */
final class OpenConnections {

    /** Logged under the loop's name, as before the transport was split into files. */
    private static final Logger LOG = LoggerFactory.getLogger(SelectorLoop.class);

    private final SelectorLoop loop;
    private final IrmiHooks hooks;
    private final Map<Long, InboundConnection> byId = new ConcurrentHashMap<>();

    OpenConnections(SelectorLoop loop, IrmiHooks hooks) {
        this.loop = loop;
        this.hooks = hooks;
    }

    /** Every open connection: a live view. */
    Collection<InboundConnection> all() {
        return byId.values();
    }

    int size() {
        return byId.size();
    }

    void add(InboundConnection c) {
        byId.put(c.id, c);
    }

    void remove(InboundConnection c) {
        byId.remove(c.id);
    }

    /** A connection opened or became active after a quiet spell: tells the stream activity listener. */
    void onStreamActive() {
        Runnable listener = hooks.streamActivityListener();
        if (listener != null) {
            try {
                listener.run();
            } catch (RuntimeException e) {
                LOG.warn("stream activity listener failed", e);
            }
        }
    }

    /**
     * Forgets requests that never reported their end, resumes the connections whose share grew,
     * and closes the stalled connections and the idle quiet ones. SELECTOR THREAD ONLY.
     *
     * @param nowNanos the turn's time
     */
    void sweep(long nowNanos) {
        TransportConfig config = loop.config;
        long stallDeadline = nowNanos - TimeUnit.MILLISECONDS.toNanos(config.stallTimeoutMillis());
        long idleNanos = TimeUnit.MILLISECONDS.toNanos(config.idleTimeoutMillis());
        long forgetBefore = loop.nanoTime() - TimeUnit.MILLISECONDS.toNanos(config.stallTimeoutMillis());
        for (InboundConnection c : byId.values()) {
            c.running.forgetStartedBefore(forgetBefore);
            loop.admission.resumeShare(c); // its share grows when other connections' requests end
            if (c.stalledSince(stallDeadline)) {
                loop.counters.stallCloses.add(1);
                c.close();
            } else if (idleNanos > 0 && nowNanos - c.lastActivityNanos > idleNanos && c.isQuiet()) {
                loop.counters.idleCloses.add(1);
                c.closeGracefully();
            }
        }
    }

    /** No connection is read any more (replies still go out). SELECTOR THREAD ONLY. */
    void stopReading() {
        for (InboundConnection c : byId.values()) {
            ReadInterest.stop(c);
        }
    }

    /** True when a connection has requests read and not answered, or JacORB messages not yet written. */
    boolean anyInFlight() {
        for (InboundConnection c : byId.values()) {
            if (c.inFlight() > 0 || (c.giop != null && c.giop.hasPendingMessages())) {
                return true;
            }
        }
        return false;
    }

    /** Sends CloseConnection where it fits and closes every connection. */
    void closeAllGracefully() {
        for (InboundConnection c : new ArrayList<>(byId.values())) {
            c.closeGracefully();
        }
    }

    /** See {@link org.irmi.orb.IrmiTransport#setReadBudget}. Any thread. */
    boolean setReadBudget(long connectionId, int bytesPerTurn) {
        if (bytesPerTurn < 1) {
            throw new IllegalArgumentException("bytesPerTurn must be >= 1 but is " + bytesPerTurn);
        }
        InboundConnection c = byId.get(connectionId);
        if (c == null) {
            return false;
        }
        c.readBudgetBytes = bytesPerTurn;
        return true;
    }

    /** See {@link org.irmi.orb.IrmiTransport#setReceiveBufferSize}: set on the selector thread. Any thread. */
    boolean setReceiveBufferSize(long connectionId, int bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("bytes must be >= 1 but is " + bytes);
        }
        InboundConnection c = byId.get(connectionId);
        if (c == null) {
            return false;
        }
        loop.post(() -> {
            try {
                c.channel.setOption(StandardSocketOptions.SO_RCVBUF, bytes);
            } catch (IOException | RuntimeException e) {
                LOG.debug("SO_RCVBUF not set: {}", e.toString());
            }
        });
        return true;
    }

    /** What each open connection reads, holds and has read. Any thread. */
    List<ConnectionView> views() {
        List<ConnectionView> out = new ArrayList<>(byId.size());
        for (InboundConnection c : byId.values()) {
            out.add(new ConnectionView(c.id, c.peerAddress, c.readBudgetBytes, c.bytesRead, c.pendingOutboundBytes(),
                    c.budgetFilledTurns));
        }
        return out;
    }
}
