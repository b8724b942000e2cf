package org.irmi.orb;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Diagnostic of the hostile-clients benchmark ({@code -Dirmi.hostile.trace=true}): where a request's
 * time goes inside an I-RMI server, per kind of client (the well-behaved client, the floods, the 256 KB
 * echoes), as percentiles in microseconds. Stamps, all {@link System#nanoTime()} on one machine: the
 * well-behaved client's send (its string carries it), the reader's parse (server request hook), the
 * servant's start and end (request cost listener: its elapsed and CPU time). So {@code send>parse} is
 * the client's marshalling, the network and the wait for the reader; {@code parse>start} the wait for
 * a slot among the requests in flight, the hand-off and JacORB's POA queue; {@code run} the servant.
 * Measuring costs the server some CPU (two CPU clock reads per request), in both phases alike.
 */
final class WaitTrace {

    private static final String[] KINDS = {"good", "flood", "big", "other"};
    private static final String[] STAGES = {"send>parse", "parse>start", "run", "cpu"};
    private final Map<Long, Integer> kindOf = new ConcurrentHashMap<>();
    /** Parse time of each request in flight, by connection and request id. */
    private final Map<Long, Long> parsedAt = new ConcurrentHashMap<>();
    private final Histogram[][] h = new Histogram[KINDS.length][STAGES.length];

    WaitTrace(IrmiHooks hooks) {
        reset();
        hooks.setCpuSampleEvery(1);
        hooks.setMeasureCpuAndAllocation(true);
        hooks.setServerRequestHook(this::parsed);
        hooks.setRequestCostListener(this::finished);
    }

    synchronized void reset() {
        for (int k = 0; k < KINDS.length; k++) {
            for (int s = 0; s < STAGES.length; s++) {
                h[k][s] = new ConcurrentHistogram(60_000_000L, 3);
            }
        }
    }

    private static long key(long connection, int request) {
        return connection << 32 | (request & 0xffffffffL);
    }

    private java.util.Optional<Rejection> parsed(RequestHeader r) {
        long now = System.nanoTime();
        String text = text(r.arguments());
        int kind = kindOf.computeIfAbsent(r.connectionId(), c -> r.operation().equals("echoBytes") ? 2
                : r.operation().equals("echoString") ? (text.startsWith("call ") ? 0 : 1) : 3);
        parsedAt.put(key(r.connectionId(), r.requestId()), now);
        if (kind == 0) {
            String[] parts = text.split(" ");
            if (parts.length == 3) {
                record(0, 0, now - Long.parseLong(parts[2].trim()));
            }
        }
        return java.util.Optional.empty();
    }

    private static String text(ByteBuffer args) {
        if (args.remaining() < 5) {
            return "";
        }
        int len = args.getInt(0);
        if (len < 1 || len > 200 || len + 4 > args.remaining()) {
            return "";
        }
        byte[] b = new byte[len - 1];
        args.duplicate().position(4).get(b);
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    private void finished(RequestCost c) {
        long end = System.nanoTime();
        Long parsed = parsedAt.remove(key(c.connectionId(), c.requestId()));
        Integer kind = kindOf.get(c.connectionId());
        if (parsed == null || kind == null) {
            return;
        }
        record(kind, 1, end - c.elapsedNanos() - parsed);
        record(kind, 2, c.elapsedNanos());
        if (c.cpuNanos() >= 0) {
            record(kind, 3, c.cpuNanos());
        }
    }

    private void record(int kind, int stage, long nanos) {
        h[kind][stage].recordValue(Math.max(0, Math.min(60_000_000L, nanos / 1000)));
    }

    /** One line per kind and stage with data, then resets. */
    synchronized String report(String phase) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < KINDS.length; k++) {
            for (int s = 0; s < STAGES.length; s++) {
                Histogram x = h[k][s].copy(); // a stable copy: iterating a histogram being written throws
                if (x.getTotalCount() > 0) {
                    b.append(String.format(java.util.Locale.ROOT, "TRACE %s %-5s %-10s n=%d p50=%d p90=%d p99=%d mean=%.0f us%n",
                            phase, KINDS[k], STAGES[s], x.getTotalCount(), x.getValueAtPercentile(50),
                            x.getValueAtPercentile(90), x.getValueAtPercentile(99), x.getMean()));
                }
            }
        }
        reset();
        return b.toString();
    }
}
