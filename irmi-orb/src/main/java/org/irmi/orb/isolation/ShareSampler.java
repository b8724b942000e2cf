package org.irmi.orb.isolation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.irmi.isolation.CrosstalkShares;
import org.irmi.orb.ConnectionView;

/**
 * Each connection's share of reading over the interval since the last sample, beside the weight
 * and the receive buffer the crosstalk point gave it: what the dashboard shows.
 *
 * <p>A connection is active when it read in the interval; its weight share is its weight over the
 * weights of all active connections, and its share of reading is its bytes over all bytes read.
 *
 * <p>THREADING: TICKER THREAD ONLY.
 */
final class ShareSampler {

    private final Map<Long, Long> bytesSeen = new HashMap<>();
    private long lastSampleNanos;

    /** Forgets the last sample: the next one counts from each connection's current bytes. */
    void reset() {
        bytesSeen.clear();
    }

    /** @return one share per open connection, ordered by connection id */
    List<ConnectionShare> sample(List<ConnectionView> open, CrosstalkShares x, long now) {
        double seconds = Math.max(1e-3, (now - lastSampleNanos) / 1e9);
        lastSampleNanos = now;
        Map<Long, Long> deltas = new HashMap<>();
        long total = 0;
        double activeWeight = 0;
        Map<Long, Long> seen = new HashMap<>();
        for (ConnectionView c : open) {
            long before = bytesSeen.getOrDefault(c.connectionId(), c.bytesRead());
            long delta = Math.max(0, c.bytesRead() - before);
            deltas.put(c.connectionId(), delta);
            seen.put(c.connectionId(), c.bytesRead());
            total += delta;
        }
        bytesSeen.clear();
        bytesSeen.putAll(seen);
        for (ConnectionView c : open) {
            if (deltas.get(c.connectionId()) > 0) {
                activeWeight += x.weightOf(c.connectionId());
            }
        }
        List<ConnectionShare> out = new ArrayList<>(open.size());
        for (ConnectionView c : open) {
            long delta = deltas.get(c.connectionId());
            double w = x.weightOf(c.connectionId());
            boolean active = delta > 0;
            out.add(new ConnectionShare(c.connectionId(), c.peerAddress(), w, active,
                    active && activeWeight > 0 ? 100 * w / activeWeight : 0, c.readBudgetBytes(),
                    x.receiveBufferBytes(c.connectionId()), c.bytesRead(), delta / seconds,
                    total == 0 ? 0 : 100.0 * delta / total));
        }
        out.sort(Comparator.comparingLong(ConnectionShare::connectionId));
        return List.copyOf(out);
    }
}
