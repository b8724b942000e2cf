package org.irmi.monitors;

import java.util.List;
import java.util.Optional;

import io.micrometer.core.instrument.binder.MeterBinder;
import org.irmi.monitors.internal.WindowedRemoteLoadStore;
import org.irmi.sla.WindowConfig;

/**
 * The client side of remote resource monitoring (the slow-client point's third window): one window
 * of {@link LoadReport}s per remote host, fed from the load-report service context of replies.
 * Hosts that never sent a report (peers without I-RMI) have no entry.
 *
 * <p>Bounded: at most {@code maxHosts} hosts are kept; a new host beyond that replaces the host whose
 * latest report is oldest.
 *
 * <p>THREAD-SAFE. {@link #onReport} is lock-free for a known host.
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
