package org.irmi.bench.echo.internal;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A load client that holds many connections on one thread: a selector, non-blocking sockets, and
 * GIOP 1.2 spoken directly (no ORB). Every call is {@code irmibench::Echo::echoBytes(in Bytes)}, an
 * octet sequence. The first request of each connection carries the CodeSets service context, as an ORB
 * client's does, so that the server treats the connection as it treats an ORB's.
 *
 * <p>Use: {@link #ramp} opens all connections and makes one call on each; {@link #closedLoop}
 * makes every open connection call again as soon as its reply arrives; {@link #close} closes them.
 * Between the two the connections sit idle. Every phase has a deadline. A reply counts as an error
 * when it is not a GIOP 1.2 Reply, its request id differs, its status is not NO_EXCEPTION, or its
 * body is not the payload sent.
 */
public final class NioGiopClient implements AutoCloseable {

    private static final byte[] OPERATION = "echoBytes".getBytes(StandardCharsets.US_ASCII);
    private static final int GIOP_HEADER = 12;
    private static final int MAX_MESSAGE = 1 << 20;
    /** IOP::CodeSets. */
    static final int CODE_SETS_CONTEXT_ID = 1;
    /** OSF code set registry ids. */
    static final int ISO_8859_1 = 0x00010001;
    static final int UTF_16 = 0x00010109;

    /** Counts and latencies of one phase. */
    public record PhaseResult(int connected, int connectFailures, long calls, long errors, long millis,
                              long p50Micros, long p99Micros, List<String> firstErrors) {

        /** Calls per second over the phase. */
        public double callsPerSecond() {
            return millis == 0 ? 0 : calls * 1000.0 / millis;
        }
    }

    private final InetSocketAddress address;
    private final byte[] objectKey;
    private final byte[] payload;
    private final Selector selector;
    private final List<Conn> open = new ArrayList<>();
    private long errors;
    private long calls;
    private final List<String> firstErrors = new ArrayList<>();
    private long[] latencies = new long[1024];
    private int latencyCount;

    private final class Conn {
        final SocketChannel channel;
        final long connectStarted;
        ByteBuffer out;
        ByteBuffer in = ByteBuffer.allocate(256);
        int nextId = 1;
        int expectedId;
        long sentAt;
        boolean awaiting;
        boolean broken;

        Conn(SocketChannel channel) {
            this.channel = channel;
            this.connectStarted = System.nanoTime();
        }
    }

    /**
     * @param ior         the echo server's IOR (its first IIOP profile is used)
     * @param payloadSize the octets of each request's argument
     */
    public NioGiopClient(IorInfo ior, int payloadSize) throws IOException {
        this.address = new InetSocketAddress(ior.host(), ior.port());
        this.objectKey = ior.objectKey().clone();
        this.payload = new byte[payloadSize];
        for (int i = 0; i < payloadSize; i++) {
            payload[i] = (byte) (i * 31 + 7);
        }
        this.selector = Selector.open();
    }

    /** Connections open now (not counting those closed after an error). */
    public int openConnections() {
        return open.size();
    }

    /**
     * Opens {@code n} connections, at most {@code connectsInFlight} connecting at once, and makes one
     * call on each as soon as it is connected.
     *
     * @param connectTimeout how long one connect may take before it counts as failed
     * @param deadline       the whole phase's limit; what has not finished by then counts as failed
     */
    public PhaseResult ramp(int n, int connectsInFlight, Duration connectTimeout, Duration deadline) throws IOException {
        resetCounters();
        long start = System.nanoTime();
        long end = start + deadline.toNanos();
        int started = 0;
        int connectFailures = 0;
        int pendingConnects = 0;
        int pendingReplies = 0;
        List<Conn> connecting = new ArrayList<>();
        while ((started < n || pendingConnects > 0 || pendingReplies > 0) && System.nanoTime() < end) {
            while (started < n && pendingConnects < connectsInFlight) {
                SocketChannel ch = SocketChannel.open();
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                Conn c = new Conn(ch);
                started++;
                try {
                    if (ch.connect(address)) {
                        open.add(c);
                        ch.register(selector, SelectionKey.OP_READ, c);
                        send(c);
                        pendingReplies++;
                    } else {
                        ch.register(selector, SelectionKey.OP_CONNECT, c);
                        connecting.add(c);
                        pendingConnects++;
                    }
                } catch (IOException e) {
                    connectFailures++;
                    note("connect: " + e);
                    ch.close();
                }
            }
            selector.select(20);
            for (SelectionKey k : selector.selectedKeys()) {
                Conn c = (Conn) k.attachment();
                if (k.isValid() && k.isConnectable()) {
                    pendingConnects--;
                    connecting.remove(c);
                    try {
                        c.channel.finishConnect();
                        k.interestOps(SelectionKey.OP_READ);
                        open.add(c);
                        send(c);
                        pendingReplies++;
                    } catch (IOException e) {
                        connectFailures++;
                        note("connect: " + e);
                        k.cancel();
                        c.channel.close();
                    }
                } else if (k.isValid() && (k.isReadable() || k.isWritable())) {
                    pendingReplies -= handle(c, k, false);
                }
            }
            selector.selectedKeys().clear();
            // Connects that took too long count as failed.
            long now = System.nanoTime();
            for (int i = connecting.size() - 1; i >= 0; i--) {
                Conn c = connecting.get(i);
                if (now - c.connectStarted > connectTimeout.toNanos()) {
                    connecting.remove(i);
                    pendingConnects--;
                    connectFailures++;
                    note("connect timed out after " + connectTimeout.toMillis() + " ms");
                    c.channel.close();
                }
            }
        }
        // Whatever is still pending at the deadline failed.
        connectFailures += (n - started) + pendingConnects;
        for (Conn c : connecting) {
            c.channel.close();
        }
        if (pendingReplies > 0) {
            errors += pendingReplies;
            note(pendingReplies + " replies missing at the ramp's deadline");
            for (Conn c : List.copyOf(open)) {
                if (c.awaiting) {
                    drop(c);
                }
            }
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        return result(connectFailures, millis);
    }

    /**
     * Every open connection calls, and calls again as soon as its reply arrives, for {@code measure}.
     * Replies still outstanding at the end get up to {@code drain} to arrive (they do not count as
     * calls); those that do not count as errors.
     */
    public PhaseResult closedLoop(Duration measure, Duration drain) throws IOException {
        return closedLoop(Duration.ZERO, measure, drain, null, null);
    }

    /**
     * As {@link #closedLoop(Duration, Duration)}, after a warm-up of the same loop: the calls go on
     * without a pause from the warm-up into the measurement, and only the calls that end in the
     * measurement count (their latencies in nanoseconds also go to {@code measured}, when not null).
     *
     * @param marks called as the measurement starts ({@code true}) and ends ({@code false}); may be null
     */
    public PhaseResult closedLoop(Duration warmup, Duration measure, Duration drain,
                                  java.util.function.Consumer<Boolean> marks, org.HdrHistogram.Histogram measured)
            throws IOException {
        resetCounters();
        for (Conn c : List.copyOf(open)) {
            send(c);
        }
        long warmupEnd = System.nanoTime() + warmup.toNanos();
        while (System.nanoTime() < warmupEnd && !open.isEmpty()) {
            turn(true);
        }
        long errorsInWarmup = errors;
        resetCounters();
        if (marks != null) {
            marks.accept(true);
        }
        long start = System.nanoTime();
        long end = start + measure.toNanos();
        while (System.nanoTime() < end && !open.isEmpty()) {
            turn(true);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        if (marks != null) {
            marks.accept(false);
        }
        long measuredCalls = calls;
        long measuredErrors = errors;
        int[] lat = Arrays.copyOf(toInts(), latencyCount);
        // Drain: let the last calls end so the connections are idle again.
        long drainEnd = System.nanoTime() + drain.toNanos();
        while (System.nanoTime() < drainEnd && open.stream().anyMatch(c -> c.awaiting)) {
            turn(false);
        }
        long lost = open.stream().filter(c -> c.awaiting).count();
        for (Conn c : List.copyOf(open)) {
            if (c.awaiting) {
                drop(c);
            }
        }
        if (lost > 0) {
            note(lost + " replies missing after the closed loop's drain");
        }
        if (errorsInWarmup > 0) {
            note(errorsInWarmup + " calls failed in the warm-up");
        }
        if (measured != null) {
            for (int micros : lat) {
                measured.recordValue(Math.max(1, micros * 1000L));
            }
        }
        Arrays.sort(lat);
        return new PhaseResult(open.size(), 0, measuredCalls, measuredErrors + lost + (errors - measuredErrors), millis,
                percentile(lat, 0.50), percentile(lat, 0.99), List.copyOf(firstErrors));
    }

    /** One select and what it found ready; with {@code again}, a connection whose call ended calls again. */
    private void turn(boolean again) throws IOException {
        selector.select(10);
        for (SelectionKey k : selector.selectedKeys()) {
            Conn c = (Conn) k.attachment();
            if (k.isValid()) {
                handle(c, k, again);
            }
        }
        selector.selectedKeys().clear();
    }

    private int[] toInts() {
        int[] out = new int[latencyCount];
        for (int i = 0; i < latencyCount; i++) {
            out[i] = (int) Math.min(Integer.MAX_VALUE, latencies[i]);
        }
        return out;
    }

    private static long percentile(int[] sorted, double q) {
        if (sorted.length == 0) {
            return -1;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.floor(q * sorted.length))];
    }

    private PhaseResult result(int connectFailures, long millis) {
        int[] lat = toInts();
        Arrays.sort(lat);
        return new PhaseResult(open.size(), connectFailures, calls, errors, millis, percentile(lat, 0.50),
                percentile(lat, 0.99), List.copyOf(firstErrors));
    }

    private void resetCounters() {
        calls = 0;
        errors = 0;
        latencyCount = 0;
        firstErrors.clear();
    }

    private void note(String error) {
        if (firstErrors.size() < 5) {
            firstErrors.add(error);
        }
    }

    /**
     * Reads and writes what the key is ready for. Returns 1 when a call ended (well or not) on this
     * connection. With {@code again}, a connection whose call ended well calls again.
     */
    private int handle(Conn c, SelectionKey k, boolean again) throws IOException {
        try {
            if (k.isWritable()) {
                c.channel.write(c.out);
                if (!c.out.hasRemaining()) {
                    k.interestOps(SelectionKey.OP_READ);
                }
            }
            if (!k.isReadable()) {
                return 0;
            }
            int r = c.channel.read(c.in);
            if (r < 0) {
                if (c.awaiting) {
                    errors++;
                    note("connection closed by the server before the reply");
                    drop(c);
                    return 1;
                }
                note("connection closed by the server while idle");
                errors++;
                drop(c);
                return 0;
            }
            int ended = 0;
            while (true) {
                int verdict = tryReply(c);
                if (verdict == 0) {
                    break;
                }
                ended++;
                if (verdict < 0) {
                    drop(c);
                    return ended;
                }
                if (again) {
                    send(c);
                }
            }
            return ended;
        } catch (IOException e) {
            errors++;
            note("I/O: " + e);
            boolean was = c.awaiting;
            drop(c);
            return was ? 1 : 0;
        }
    }

    /** 0: no whole message yet; 1: a good reply; -1: a bad reply or message (counted as an error). */
    private int tryReply(Conn c) {
        ByteBuffer in = c.in;
        if (in.position() < GIOP_HEADER) {
            return 0;
        }
        boolean magic = in.get(0) == 'G' && in.get(1) == 'I' && in.get(2) == 'O' && in.get(3) == 'P';
        ByteOrder order = (in.get(6) & 1) != 0 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        int size = in.duplicate().order(order).getInt(8);
        if (!magic || size < 0 || size > MAX_MESSAGE) {
            return bad(c, "not a GIOP message (or size " + size + ")");
        }
        int total = GIOP_HEADER + size;
        if (in.position() < total) {
            if (in.capacity() < total) {
                ByteBuffer bigger = ByteBuffer.allocate(total);
                in.flip();
                bigger.put(in);
                c.in = bigger;
            }
            return 0;
        }
        ByteBuffer m = in.duplicate().order(order);
        m.limit(total);
        String error = checkReply(m, c);
        // Keep whatever follows this message.
        ByteBuffer rest = in.duplicate();
        rest.limit(in.position()).position(total);
        ByteBuffer next = ByteBuffer.allocate(Math.max(256, rest.remaining()));
        next.put(rest);
        c.in = next;
        if (error != null) {
            return bad(c, error);
        }
        long micros = (System.nanoTime() - c.sentAt) / 1000;
        c.awaiting = false;
        calls++;
        if (latencyCount == latencies.length) {
            latencies = Arrays.copyOf(latencies, latencies.length * 2);
        }
        latencies[latencyCount++] = micros;
        return 1;
    }

    private int bad(Conn c, String why) {
        errors++;
        note(why);
        c.awaiting = false;
        return -1;
    }

    /** Null when {@code m} (one whole message, position 0) is the good reply to {@code c}'s call. */
    private String checkReply(ByteBuffer m, Conn c) {
        if (m.get(4) != 1 || m.get(5) != 2) {
            return "GIOP version " + m.get(4) + "." + m.get(5) + ", not 1.2";
        }
        if (m.get(7) != 1) {
            return "GIOP message type " + m.get(7) + ", not Reply (1)";
        }
        if (!c.awaiting) {
            return "a reply with no call outstanding";
        }
        try {
            m.position(GIOP_HEADER);
            int id = m.getInt();
            if (id != c.expectedId) {
                return "reply to request " + id + ", expected " + c.expectedId;
            }
            int status = m.getInt();
            int contexts = m.getInt();
            for (int i = 0; i < contexts; i++) {
                align(m, 4);
                m.getInt();
                int len = m.getInt();
                m.position(m.position() + len);
            }
            align(m, 8);
            if (status == 2) {
                // SYSTEM_EXCEPTION: the body starts with the exception's repository id, then minor code.
                int idLen = m.getInt();
                if (idLen < 1 || idLen > m.remaining()) {
                    return "reply status 2 (SYSTEM_EXCEPTION) with a repository id of " + idLen
                            + " bytes, " + m.remaining() + " left in the message";
                }
                byte[] repoId = new byte[idLen - 1]; // checked against the bytes that arrived
                m.get(repoId);
                m.get();
                align(m, 4);
                int minor = m.getInt();
                return "reply status 2 (SYSTEM_EXCEPTION " + new String(repoId, StandardCharsets.US_ASCII)
                        + ", minor 0x" + Integer.toHexString(minor) + ")";
            }
            if (status != 0) {
                return "reply status " + status + ", not NO_EXCEPTION";
            }
            int len = m.getInt();
            if (len != payload.length) {
                return "reply of " + len + " octets, sent " + payload.length;
            }
            byte[] body = new byte[len];
            m.get(body);
            if (!Arrays.equals(body, payload)) {
                return "reply octets differ from those sent";
            }
            return null;
        } catch (RuntimeException e) {
            return "malformed reply: " + e;
        }
    }

    private static void align(ByteBuffer b, int to) {
        int p = b.position();
        b.position((p + to - 1) / to * to);
    }

    /** Sends one echoBytes request on {@code c}. */
    private void send(Conn c) throws IOException {
        int id = c.nextId++;
        c.expectedId = id;
        c.out = request(id, objectKey, payload, id == 1);
        c.awaiting = true;
        c.sentAt = System.nanoTime();
        try {
            c.channel.write(c.out);
        } catch (IOException e) {
            errors++;
            note("write: " + e);
            drop(c);
            return;
        }
        if (c.out.hasRemaining()) {
            c.channel.keyFor(selector).interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        }
    }

    /**
     * A GIOP 1.2 Request, big-endian: {@code echoBytes(payload)} on {@code key}, a reply expected. With
     * {@code codeSets}, it carries the CodeSets service context (ISO 8859-1 for char, UTF-16 for wchar), as
     * the first request of a connection from omniORB or JacORB does: a server negotiates the connection's code
     * sets from it (I-RMI's direct path takes a connection's requests only once they are negotiated).
     */
    static ByteBuffer request(int requestId, byte[] key, byte[] payload, boolean codeSets) {
        ByteBuffer b = ByteBuffer.allocate(96 + key.length + payload.length).order(ByteOrder.BIG_ENDIAN);
        b.put(new byte[] {'G', 'I', 'O', 'P', 1, 2, 0, 0});
        b.putInt(0); // size, set below
        b.putInt(requestId);
        b.put((byte) 3); // response_flags: SYNC_WITH_TARGET (a reply is expected)
        b.put(new byte[3]); // reserved
        b.putShort((short) 0); // TargetAddress: KeyAddr
        align(b, 4);
        b.putInt(key.length);
        b.put(key);
        align(b, 4);
        b.putInt(OPERATION.length + 1);
        b.put(OPERATION);
        b.put((byte) 0);
        align(b, 4);
        if (codeSets) {
            b.putInt(1); // one service context
            b.putInt(CODE_SETS_CONTEXT_ID);
            b.putInt(12); // its encapsulation: byte order, 3 octets of padding, char and wchar code sets
            b.put((byte) 0).put(new byte[3]);
            b.putInt(ISO_8859_1);
            b.putInt(UTF_16);
        } else {
            b.putInt(0); // no service contexts
        }
        align(b, 8); // GIOP 1.2: the body starts 8-aligned
        b.putInt(payload.length);
        b.put(payload);
        b.putInt(8, b.position() - GIOP_HEADER);
        b.flip();
        return b;
    }

    private void drop(Conn c) {
        open.remove(c);
        c.awaiting = false;
        SelectionKey k = c.channel.keyFor(selector);
        if (k != null) {
            k.cancel();
        }
        try {
            c.channel.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    /** Closes every connection and the selector. */
    @Override
    public void close() throws IOException {
        for (Conn c : List.copyOf(open)) {
            drop(c);
        }
        selector.close();
    }
}
