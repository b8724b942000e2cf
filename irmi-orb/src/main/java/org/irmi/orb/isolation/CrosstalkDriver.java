package org.irmi.orb.isolation;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.micrometer.core.instrument.binder.MeterBinder;

import org.irmi.isolation.ConnectionTuner;
import org.irmi.isolation.IncomingRequest;
import org.irmi.isolation.IsolationRuntime;
import org.irmi.isolation.QosCrosstalkPoint;
import org.irmi.orb.ConnectionView;
import org.irmi.orb.IrmiTransport;
import org.irmi.orb.TransportMetrics;

/**
 * Drives the QoS-crosstalk point from the transport: tells it which connections opened and closed,
 * how many bytes each read, and the request headers the reader thread handed over; ticks it, and
 * lets it set per-connection read budgets and receive buffers through the transport. A new runtime
 * (SLA reload) gets a new crosstalk point, which starts from the open connections.
 *
 * <p>THREADING: {@link #offerHeader} from the reader thread (a bounded hand-off queue); everything
 * else TICKER THREAD ONLY, which owns the crosstalk point.
 */
final class CrosstalkDriver {

    /** Headers waiting for the ticker at most; more are dropped (the point then misses a weight change). */
    private static final int MAX_PENDING_HEADERS = 65_536;

    private final Supplier<Optional<IrmiTransport>> transports;
    private final Consumer<MeterBinder> bind;
    // reader thread -> ticker
    private final ConcurrentLinkedQueue<IncomingRequest> headers = new ConcurrentLinkedQueue<>();
    private final AtomicInteger headerCount = new AtomicInteger();
    // ticker thread only
    private final ShareSampler shares = new ShareSampler();
    private final Map<Long, Long> bytesSeen = new HashMap<>();
    private QosCrosstalkPoint crosstalk;
    private IsolationRuntime crosstalkRuntime;
    private boolean metricsBound;
    /** Whether the runtime in force has a crosstalk point: written by the ticker, read by the reader thread. */
    private volatile boolean hasPoint;

    /**
     * @param transports the ORB's transport, present once its server side listens
     * @param bind       binds the transport's meters once the transport is there
     */
    CrosstalkDriver(Supplier<Optional<IrmiTransport>> transports, Consumer<MeterBinder> bind) {
        this.transports = transports;
        this.bind = bind;
    }

    /**
     * Any thread: whether the runtime in force, as of the ticker's last turn, has a crosstalk point.
     * Without one a stream that wakes up has nothing to recompute, and the reader thread does not
     * wake the ticker for it (at a few hundred calls a second on idle-between-calls connections,
     * that was a second thread woken per request).
     */
    boolean hasPoint() {
        return hasPoint;
    }

    /** READER THREAD: hands a request header to the crosstalk point; never blocks. */
    void offerHeader(IncomingRequest request) {
        if (headerCount.get() < MAX_PENDING_HEADERS) {
            headerCount.incrementAndGet();
            headers.add(request);
        }
    }

    /** TICKER THREAD: feeds the crosstalk point of {@code rt} what happened since the last call, and ticks it. */
    void drive(IsolationRuntime rt, long now) {
        IrmiTransport transport = transports.get().orElse(null);
        if (transport == null) {
            return;
        }
        if (!metricsBound) {
            metricsBound = true;
            bind.accept(new TransportMetrics(transport));
            bind.accept(new org.irmi.orb.ValueFilterMetrics());
        }
        if (crosstalkRuntime != rt) {
            crosstalkRuntime = rt;
            bytesSeen.clear();
            crosstalk = rt.newCrosstalkPoint(new ConnectionTuner() {
                @Override
                public void setReadBudget(long connectionId, int bytesPerTurn) {
                    transport.setReadBudget(connectionId, bytesPerTurn);
                }

                @Override
                public void setReceiveBufferSize(long connectionId, int bytes) {
                    transport.setReceiveBufferSize(connectionId, bytes);
                }
            }).orElse(null);
        }
        hasPoint = crosstalk != null;
        if (crosstalk == null) {
            headers.clear();
            headerCount.set(0);
            return;
        }
        Set<Long> open = new HashSet<>();
        for (ConnectionView c : transport.connections()) {
            open.add(c.connectionId());
            Long before = bytesSeen.get(c.connectionId());
            if (before == null) {
                String peer = c.peerAddress();
                int colon = peer.lastIndexOf(':');
                crosstalk.onConnectionOpened(c.connectionId(), colon < 0 ? peer : peer.substring(0, colon));
                before = 0L;
            }
            long delta = c.bytesRead() - before;
            if (delta > 0) {
                crosstalk.onBytesRead(c.connectionId(), (int) Math.min(Integer.MAX_VALUE, delta));
            }
            bytesSeen.put(c.connectionId(), c.bytesRead());
        }
        for (IncomingRequest r; (r = headers.poll()) != null; ) {
            headerCount.decrementAndGet();
            crosstalk.onRequestHeader(r);
        }
        bytesSeen.keySet().removeIf(id -> {
            if (open.contains(id)) {
                return false;
            }
            crosstalk.onConnectionClosed(id);
            return true;
        });
        crosstalk.tick(now);
    }

    /**
     * TICKER THREAD: each connection as the crosstalk point treats it, and its share of the bytes
     * read since the last call; empty without a transport or a crosstalk point.
     */
    List<ConnectionShare> shares(long now) {
        IrmiTransport transport = transports.get().orElse(null);
        QosCrosstalkPoint x = crosstalk;
        if (transport == null || x == null) {
            shares.reset();
            return List.of();
        }
        return shares.sample(transport.connections(), x, now);
    }
}
