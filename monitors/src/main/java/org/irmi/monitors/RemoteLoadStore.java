package org.irmi.monitors;

import java.util.List;
import java.util.Optional;

import io.micrometer.core.instrument.binder.MeterBinder;
import org.irmi.monitors.internal.WindowedRemoteLoadStore;
import org.irmi.sla.WindowConfig;

/**
 * The client side of remote resource monitoring (the slow-client point's third window): one window
 * of {@link LoadReport}s per remote host, fed from the load-report service context of replies, and
 * the smoothed round trip of calls to each host. Hosts that never sent a report nor had a round trip
 * recorded have no entry; a host known only by its round trips (a peer without I-RMI) has no latest
 * report.
 *
 * <p>Bounded: at most {@code maxHosts} hosts are kept; a new host beyond that replaces the host whose
 * latest report is oldest.
 *
 * <p>THREAD-SAFE. {@link #onReport} and {@link #onRoundTrip} are lock-free for a known host.
 */
public interface RemoteLoadStore {

    /** Default bound on remembered hosts. */
    int DEFAULT_MAX_HOSTS = 256;

    /**
     * Records a report that arrived from a host.
     *
     * @param host   the remote host
     * @param report its report
     */
    void onReport(String host, LoadReport report);

    /**
     * Records a report that arrived at a time the caller took itself from the same clock (so that
     * the report's age is measured from that moment).
     *
     * @param host            the remote host
     * @param report          its report
     * @param receivedAtNanos when it arrived, monotonic nanoseconds of the store's clock
     */
    void onReport(String host, LoadReport report, long receivedAtNanos);

    /**
     * Records one round trip of a call to a host into its smoothed round trip, an exponentially
     * weighted mean with weight 1/4 per sample: {@code rtt = rtt + (sample - rtt) / 4}, the first
     * sample taken as it is. The sample's time is the store's clock now.
     *
     * @param host     the remote host
     * @param rttNanos the call's round trip, nanoseconds (&gt; 0)
     */
    void onRoundTrip(String host, long rttNanos);

    /**
     * Decodes service context data and records it; malformed data is counted and dropped.
     *
     * @param host the remote host
     * @param data the service context data (null: the peer sent none, nothing is recorded)
     * @return true if a report was recorded
     */
    boolean onServiceContext(String host, byte[] data);

    /**
     * @param host a remote host
     * @return what is known about it, or empty if it never sent a report (or was evicted)
     */
    Optional<RemoteHostSnapshot> snapshot(String host);

    /** @return the hosts known now */
    List<String> hosts();

    /** @return malformed reports dropped so far */
    long malformedReports();

    /**
     * Gauges {@code irmi.remote.*}, aggregated over hosts (no per-host tags).
     *
     * @return the binder
     */
    MeterBinder metrics();

    /**
     * @param config   window per host
     * @param clock    time source
     * @param maxHosts bound on hosts kept (&gt;= 1)
     * @return a new store
     */
    static RemoteLoadStore of(WindowConfig config, Clock clock, int maxHosts) {
        return new WindowedRemoteLoadStore(config, clock, maxHosts);
    }

    /**
     * @param config window per host
     * @param clock  time source
     * @return a new store keeping up to {@link #DEFAULT_MAX_HOSTS} hosts
     */
    static RemoteLoadStore of(WindowConfig config, Clock clock) {
        return of(config, clock, DEFAULT_MAX_HOSTS);
    }
}
