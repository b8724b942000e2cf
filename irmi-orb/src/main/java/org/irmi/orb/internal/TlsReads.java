package org.irmi.orb.internal;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The reads of TLS connections that the selector cannot see coming: a connection whose
 * handshake's delegated tasks (key exchange, signatures) run off the selector thread is not read
 * meanwhile, and is read again at once when they are done; a connection holding whole records
 * already taken from its socket gets no readiness for them, so it is read again in the same or
 * the next turn without waiting.
 *
 * <p>SELECTOR THREAD ONLY, except {@link #tasks} (any thread) and the handshake tasks, which run on
 * their own bounded pool.
 */
final class TlsReads {

    private final SelectorLoop loop;
    /**
     * Runs TLS handshakes' delegated tasks (key exchange, signatures) off the selector thread;
     * bounded. Null without a TLS port.
     */
    private final ThreadPoolExecutor tasks;
    /**
     * TLS connections holding whole records already read from their socket: read again without
     * waiting. SELECTOR THREAD ONLY.
     */
    private final Set<InboundConnection> bufferedReads = new LinkedHashSet<>();

    /** @param tlsPort true when the transport has a TLS port (else no handshake ever runs) */
    TlsReads(SelectorLoop loop, boolean tlsPort) {
        this.loop = loop;
        this.tasks = !tlsPort ? null : new ThreadPoolExecutor(1, 2, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(256), r -> {
                    Thread t = new Thread(r, "irmi-tls-handshake");
                    t.setDaemon(true);
                    return t;
                });
    }

    /** Where TLS handshakes run their delegated tasks. */
    Executor tasks() {
        return tasks;
    }

    /** {@code c}'s handshake tasks run: it is not read meanwhile. SELECTOR THREAD ONLY. */
    void pause(InboundConnection c) {
        ReadInterest.stop(c);
    }

    /** {@code c}'s handshake tasks are done: it is read again, at once. SELECTOR THREAD ONLY. */
    void resume(InboundConnection c) {
        if (c.isClosed()) {
            return;
        }
        ReadInterest.resume(c);
        bufferedReads.add(c);
    }

    /** True while a connection holds records already taken from its socket. */
    boolean any() {
        return !bufferedReads.isEmpty();
    }

    /** {@code c} holds whole records already taken from its socket: no readiness will come for them. */
    void add(InboundConnection c) {
        bufferedReads.add(c);
    }

    /** {@code c} is read on readiness in this turn. */
    void remove(InboundConnection c) {
        bufferedReads.remove(c);
    }

    /** Reads the TLS connections that hold records already taken from their socket. SELECTOR THREAD ONLY. */
    void readBuffered(long nowNanos) {
        if (bufferedReads.isEmpty()) {
            return;
        }
        List<InboundConnection> now = new ArrayList<>(bufferedReads);
        bufferedReads.clear();
        for (InboundConnection c : now) {
            if (!c.isClosed() && !c.readPaused() && !c.readDeferred && loop.pacer.mayRead(c, nowNanos)) {
                loop.read(c);
            } else if (!c.isClosed() && c.wire.hasBufferedInput()) {
                // paused: its key's OP_READ is off too; resumed by whoever resumes it, then read on readiness or here
                bufferedReads.add(c);
            }
        }
    }

    /** Stops the handshake tasks' threads (the transport shuts down). */
    void shutdown() {
        if (tasks != null) {
            tasks.shutdownNow();
        }
    }
}
