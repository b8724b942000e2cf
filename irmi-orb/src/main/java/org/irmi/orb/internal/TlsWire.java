package org.irmi.orb.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

/**
 * GIOP inside TLS on a non-blocking socket, with an {@link SSLEngine} in server mode.
 *
 * <p>Reading (selector thread) takes records from the socket into {@code netIn}, opens them into
 * {@code plainIn} and hands out plain bytes. Writing (under the connection's outbound lock) seals
 * at most one record per call into {@code netOut} and writes it; what the socket does not take
 * stays in {@code netOut} until {@link #flush()}. Handshake messages are sealed under the same lock,
 * so they never interleave with records of replies.
 *
 * <p>The handshake's delegated tasks (key exchange, signatures: the CPU-heavy part) run on
 * {@code tasks}, never on the selector thread; meanwhile the connection is not read, and
 * {@code tasksDone} is called to read it again. A handshake that does not finish within the
 * transport's stall timeout ends the connection like a stalled message
 * ({@link #handshakeStalledSince}). Memory: three buffers of a TLS packet (about 16.7 KiB) each.
 *
 * <p>THREADS: {@link #read} selector thread only; {@link #write}, {@link #flush} under {@code outLock}.
 */
final class TlsWire implements Wire {

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final SocketChannel channel;
    private final SSLEngine engine;
    private final Object outLock;
    private final Executor tasks;
    private final Runnable tasksDone;
    private final Runnable handshakeDone;
    private final long startNanos;
    /** Sealed bytes from the socket, not yet opened (write mode). SELECTOR THREAD ONLY. */
    private ByteBuffer netIn;
    /** Opened bytes not yet handed out (read mode). SELECTOR THREAD ONLY. */
    private ByteBuffer plainIn;
    /** Sealed bytes not yet written (read mode). Guarded by outLock. */
    private ByteBuffer netOut;
    private volatile boolean tasksRunning;
    private volatile boolean established;
    private boolean inputEnded;

    /**
     * @param tasksDone     called on a task thread when delegated tasks finish: read this connection again
     * @param handshakeDone called on the selector thread when the handshake completes: write what waits
     */
    TlsWire(SocketChannel channel, SSLEngine engine, Object outLock, Executor tasks, Runnable tasksDone,
            Runnable handshakeDone, long nowNanos) throws SSLException {
        this.channel = channel;
        this.engine = engine;
        this.outLock = outLock;
        this.tasks = tasks;
        this.tasksDone = tasksDone;
        this.handshakeDone = handshakeDone;
        this.startNanos = nowNanos;
        int packet = engine.getSession().getPacketBufferSize();
        netIn = ByteBuffer.allocate(packet);
        plainIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
        plainIn.flip();
        netOut = ByteBuffer.allocate(packet);
        netOut.flip();
        engine.beginHandshake();
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        int given = 0;
        while (dst.hasRemaining()) {
            if (plainIn.hasRemaining()) {
                given += transfer(plainIn, dst);
                continue;
            }
            if (tasksRunning || inputEnded) {
                break;
            }
            SSLEngineResult r = unwrap();
            switch (r.getStatus()) {
                case BUFFER_UNDERFLOW -> {
                    if (!netIn.hasRemaining()) {
                        int most = engine.getSession().getPacketBufferSize();
                        if (netIn.capacity() >= most) {
                            throw new SSLException("a TLS record longer than " + most + " bytes");
                        }
                        netIn = grow(netIn, most);
                    }
                    int n = channel.read(netIn);
                    if (n < 0) {
                        inputEnded = true;
                        return given > 0 ? given : -1;
                    }
                    if (n == 0) {
                        return given;
                    }
                }
                case BUFFER_OVERFLOW -> {
                    int most = engine.getSession().getApplicationBufferSize();
                    if (plainIn.capacity() >= most) {
                        throw new SSLException("a TLS record opens to more than " + most + " bytes");
                    }
                    plainIn = growForReading(plainIn, most);
                }
                case CLOSED -> {
                    inputEnded = true;
                    return given > 0 ? given : -1;
                }
                case OK -> {
                    if (!handshake(r.getHandshakeStatus())) {
                        return given;
                    }
                }
            }
        }
        return given;
    }

    private SSLEngineResult unwrap() throws SSLException {
        netIn.flip();
        plainIn.compact();
        try {
            return engine.unwrap(netIn, plainIn);
        } finally {
            plainIn.flip();
            netIn.compact();
        }
    }

    /** Moves the handshake on; false when it waits for its tasks. SELECTOR THREAD ONLY. */
    private boolean handshake(HandshakeStatus status) throws IOException {
        while (true) {
            switch (status) {
                case NEED_TASK -> {
                    runTasks();
                    return false;
                }
                case NEED_WRAP -> status = sealHandshake();
                case FINISHED -> {
                    finishHandshake();
                    return true;
                }
                default -> {
                    if (status == HandshakeStatus.NOT_HANDSHAKING) {
                        finishHandshake(); // JSSE may report the end as NOT_HANDSHAKING
                    }
                    return true;
                }
            }
        }
    }

    /**
     * Seals the handshake's next flight(s) into {@code netOut} and writes them. Returns the
     * handshake's status then; NEED_UNWRAP when the socket has not taken everything yet (the
     * connection asks for OP_WRITE, and {@link #flush()} goes on from there).
     */
    private HandshakeStatus sealHandshake() throws IOException {
        synchronized (outLock) {
            HandshakeStatus status = engine.getHandshakeStatus();
            while (status == HandshakeStatus.NEED_WRAP) {
                if (!writeOut()) {
                    return HandshakeStatus.NEED_UNWRAP;
                }
                netOut.compact();
                SSLEngineResult r;
                try {
                    r = engine.wrap(EMPTY, netOut);
                } finally {
                    netOut.flip();
                }
                if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
                    throw new IOException("TLS closed during the handshake");
                }
                status = r.getHandshakeStatus();
            }
            if (!writeOut() && status != HandshakeStatus.FINISHED && status != HandshakeStatus.NEED_TASK) {
                return HandshakeStatus.NEED_UNWRAP;
            }
            return status;
        }
    }

    /** Writes what {@code netOut} holds; true when all of it went. Under outLock. */
    private boolean writeOut() throws IOException {
        while (netOut.hasRemaining()) {
            if (channel.write(netOut) == 0) {
                return false;
            }
        }
        return true;
    }

    private void finishHandshake() {
        if (!established) {
            established = true;
            handshakeDone.run();
        }
    }

    private void runTasks() {
        tasksRunning = true;
        try {
            tasks.execute(() -> {
                try {
                    Runnable task;
                    while ((task = engine.getDelegatedTask()) != null) {
                        task.run();
                    }
                } finally {
                    tasksRunning = false;
                    tasksDone.run();
                }
            });
        } catch (RejectedExecutionException e) {
            tasksRunning = false;
            inputEnded = true; // too many handshakes at once: this one ends
        }
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        if (!established || !writeOut()) {
            return 0;
        }
        netOut.compact();
        SSLEngineResult r;
        try {
            r = engine.wrap(srcs, offset, length, netOut);
        } finally {
            netOut.flip();
        }
        if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
            throw new IOException("TLS connection closed");
        }
        writeOut();
        return r.bytesConsumed();
    }

    @Override
    public boolean flush() throws IOException {
        if (!writeOut()) {
            return false;
        }
        if (!established && engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP) {
            // the rest of a flight that waited for the socket (OP_WRITE, selector thread)
            HandshakeStatus status = sealHandshake();
            if (status == HandshakeStatus.FINISHED) {
                finishHandshake();
            } else if (status == HandshakeStatus.NEED_TASK) {
                runTasks();
            }
            return !netOut.hasRemaining();
        }
        return true;
    }

    /**
     * True when opened bytes wait, or a whole record waits in {@code netIn}: reading again makes
     * progress without the socket (a partial record waits for the socket instead).
     */
    @Override
    public boolean hasBufferedInput() {
        if (tasksRunning || inputEnded) {
            return false;
        }
        if (plainIn.hasRemaining()) {
            return true;
        }
        int have = netIn.position();
        if (have < 5) {
            return false;
        }
        int length = ((netIn.get(3) & 0xff) << 8) | (netIn.get(4) & 0xff); // the record header's length
        return have >= 5 + length;
    }

    @Override
    public boolean writable() {
        return established;
    }

    @Override
    public boolean handshakeStalledSince(long deadlineNanos) {
        return !established && startNanos - deadlineNanos < 0;
    }

    /** True while the handshake's tasks run: the connection is not read meanwhile. */
    boolean busy() {
        return tasksRunning;
    }

    private static int transfer(ByteBuffer from, ByteBuffer to) {
        int n = Math.min(from.remaining(), to.remaining());
        ByteBuffer slice = from.slice();
        slice.limit(n);
        to.put(slice);
        from.position(from.position() + n);
        return n;
    }

    /** A larger buffer in write mode holding what {@code b} (write mode) holds. */
    private static ByteBuffer grow(ByteBuffer b, int atLeast) {
        ByteBuffer bigger = ByteBuffer.allocate(Math.max(atLeast, b.capacity() * 2));
        b.flip();
        bigger.put(b);
        return bigger;
    }

    /** A larger buffer in read mode holding what {@code b} (read mode) holds. */
    private static ByteBuffer growForReading(ByteBuffer b, int atLeast) {
        ByteBuffer bigger = ByteBuffer.allocate(Math.max(atLeast, b.capacity() * 2));
        bigger.put(b);
        bigger.flip();
        return bigger;
    }
}
