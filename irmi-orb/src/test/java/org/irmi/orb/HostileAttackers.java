package org.irmi.orb;

import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The hostile clients of {@link HostileClientsBenchmark}, with their own counters of what they
 * achieved at the server. Run either inside the benchmark's JVM (the set-up before: the attackers
 * share the good client's JVM and cores) or in a JVM of their own ({@link #main}), as real
 * attackers on other machines would not share the measuring client's JVM.
 *
 * <p>Counters: flood requests written and flood replies received (parsed GIOP messages), bytes the
 * never-readers got the server to accept, and connections of each kind still open at the end (a
 * write that fails, or a read that sees the end, counts the connection as closed by the server).
 */
final class HostileAttackers {

    static final int HEAP_BOMBS = 20;
    static final int PINNERS = 20;
    static final int NEVER_READERS = 4;
    static final int FLOODS = 2;
    static final int SLOWLORIS = 1000;

    private final int port;
    private final byte[] key;
    private final AtomicBoolean hostile = new AtomicBoolean(true);
    private final List<Socket> sockets = Collections.synchronizedList(new ArrayList<>());
    private final List<Thread> threads = new ArrayList<>();
    final AtomicLong floodRequests = new AtomicLong();
    final AtomicLong floodReplies = new AtomicLong();
    final AtomicLong neverReaderBytes = new AtomicLong();
    final AtomicLong slowlorisOpen = new AtomicLong();
    final AtomicLong slowlorisClosed = new AtomicLong();
    final AtomicLong bombsSent = new AtomicLong();
    final AtomicLong pinnersSent = new AtomicLong();
    private long startNanos;
    private long stopNanos;
    /** The most flood requests per second, all floods together; 0: as fast as the server takes them. */
    private final long floodCapPerSec;

    HostileAttackers(int port, byte[] key) {
        this(port, key, 0);
    }

    /**
     * @param floodCapPerSec the most flood requests per second, all floods together (a decoy attacked as hard as
     *                       the server under test was: {@link HostileClientsBenchmark}); 0: no cap
     */
    HostileAttackers(int port, byte[] key, long floodCapPerSec) {
        this.port = port;
        this.key = key;
        this.floodCapPerSec = floodCapPerSec;
    }

    /** Starts every hostile client at once. */
    void start() {
        startNanos = System.nanoTime();
        threads.add(start("heap-bombs", () -> {
            for (int i = 0; i < HEAP_BOMBS; i++) {
                Socket s = open();
                s.getOutputStream().write(header(0, (int) (64L << 20) - 12));
                s.getOutputStream().write(42);
                bombsSent.incrementAndGet();
            }
        }));
        threads.add(start("pinners", () -> {
            byte[] request = GiopClient.request12(1, key, "echoString", GiopClient.stringArg("pinned"), true);
            byte[][] parts = GiopClient.fragment12(request, 1, 16);
            for (int i = 0; i < PINNERS; i++) {
                Socket s = open();
                s.getOutputStream().write(parts[0]); // more fragments announced, never sent
                pinnersSent.incrementAndGet();
            }
        }));
        for (int i = 0; i < NEVER_READERS; i++) {
            threads.add(start("never-reader-" + i, () -> {
                Socket s = open();
                s.setReceiveBufferSize(4096);
                byte[] args = GiopClient.bytesArg(new byte[256 * 1024]);
                OutputStream o = s.getOutputStream();
                for (int id = 0; hostile.get(); id++) {
                    byte[] m = GiopClient.request12(id, key, "echoBytes", args, true);
                    o.write(m);
                    neverReaderBytes.addAndGet(m.length);
                }
            }));
        }
        for (int i = 0; i < FLOODS; i++) {
            threads.add(start("flood-" + i, () -> {
                Socket s = open();
                DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(s.getInputStream(), 65536));
                Thread drain = new Thread(() -> {
                    byte[] h = new byte[12];
                    try {
                        while (true) { // replies counted, then dropped
                            in.readFully(h);
                            boolean little = (h[6] & 1) != 0;
                            int size = little
                                    ? (h[8] & 0xff) | (h[9] & 0xff) << 8 | (h[10] & 0xff) << 16 | (h[11] & 0xff) << 24
                                    : (h[8] & 0xff) << 24 | (h[9] & 0xff) << 16 | (h[10] & 0xff) << 8 | (h[11] & 0xff);
                            in.skipNBytes(size);
                            if (h[7] == 1) {
                                floodReplies.incrementAndGet();
                            }
                        }
                    } catch (IOException ignored) {
                        // closed
                    }
                }, "flood-drain");
                drain.setDaemon(true);
                drain.start();
                byte[] args = GiopClient.stringArg("flood");
                OutputStream o = new java.io.BufferedOutputStream(s.getOutputStream(), 65536);
                double perNano = floodCapPerSec / (double) FLOODS / 1e9;
                long began = System.nanoTime();
                for (int id = 0; hostile.get(); id++) {
                    o.write(GiopClient.request12(id, key, "echoString", args, true));
                    floodRequests.incrementAndGet();
                    if (perNano > 0 && id >= (System.nanoTime() - began) * perNano) {
                        o.flush(); // ahead of the cap: what is written goes out, then a pause
                        Thread.sleep(1);
                    }
                }
                o.flush();
            }));
        }
        threads.add(start("slowloris", () -> {
            List<Socket> slow = new ArrayList<>();
            for (int i = 0; i < SLOWLORIS && hostile.get(); i++) {
                slow.add(open());
            }
            byte[] h = header(0, 100);
            for (int at = 0; hostile.get(); at++) {
                long open = 0;
                for (Socket s : slow) {
                    if (!s.isClosed()) {
                        try {
                            s.getOutputStream().write(h[at % h.length]);
                            open++;
                        } catch (IOException closed) {
                            s.close();
                        }
                    }
                }
                slowlorisOpen.set(open);
                Thread.sleep(2_000);
            }
        }));
    }

    /** Stops and closes every hostile client; returns the counters. */
    Map<String, String> stop() throws InterruptedException {
        stopNanos = System.nanoTime();
        Map<String, String> m = counters();
        hostile.set(false);
        synchronized (sockets) {
            for (Socket s : sockets) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing
                }
            }
        }
        for (Thread t : threads) {
            t.join(5_000);
        }
        return m;
    }

    private Map<String, String> counters() {
        double seconds = (stopNanos - startNanos) / 1e9;
        Map<String, String> m = new LinkedHashMap<>();
        m.put("seconds", String.format(java.util.Locale.ROOT, "%.1f", seconds));
        m.put("floodRequests", Long.toString(floodRequests.get()));
        m.put("floodReplies", Long.toString(floodReplies.get()));
        m.put("floodRepliesPerSec", Long.toString(Math.round(floodReplies.get() / seconds)));
        m.put("neverReaderBytes", Long.toString(neverReaderBytes.get()));
        m.put("slowlorisOpen", Long.toString(slowlorisOpen.get()));
        m.put("bombs", Long.toString(bombsSent.get()));
        m.put("pinners", Long.toString(pinnersSent.get()));
        return m;
    }

    private Socket open() throws IOException {
        Socket s = new Socket();
        sockets.add(s);
        s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        return s;
    }

    /** A GIOP 1.2 header (big-endian) of {@code type} declaring {@code body} bytes. */
    static byte[] header(int type, int body) {
        return new byte[] {'G', 'I', 'O', 'P', 1, 2, 0, (byte) type, (byte) (body >>> 24), (byte) (body >>> 16),
                (byte) (body >>> 8), (byte) body};
    }

    /** A hostile client's loop; any exception ends it quietly. */
    interface Body {
        void run() throws Exception;
    }

    private static Thread start(String name, Body body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Exception closed) {
                // a hostile client closed by the server, or the trial ended
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * The attackers in a JVM of their own. Arguments: the server's port, the echo object's key
     * (hex) and, optionally, the floods' cap in requests per second. Prints {@code READY}; on stdin {@code start} starts every hostile client, {@code stop}
     * prints one {@code ATTACK k=v ...} line and ends the JVM.
     */
    public static void main(String[] args) throws Exception {
        HostileAttackers a = new HostileAttackers(Integer.parseInt(args[0]), HexFormat.of().parseHex(args[1]),
                args.length > 2 ? Long.parseLong(args[2]) : 0);
        System.out.println("READY");
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.equals("start")) {
                a.start();
                System.out.println("STARTED");
                System.out.flush();
            } else if (line.equals("stop")) {
                StringBuilder b = new StringBuilder("ATTACK");
                a.stop().forEach((k, v) -> b.append(' ').append(k).append('=').append(v));
                System.out.println(b);
                System.out.flush();
                break;
            }
        }
        System.exit(0);
    }
}
