/**
 * I-RMI monitors: what the isolation points decide from.
 *
 * <ul>
 *   <li>Time: {@link org.irmi.monitors.Clock} (inject it everywhere) and {@link org.irmi.monitors.ManualClock} for tests.</li>
 *   <li>Windows: {@link org.irmi.monitors.SlidingWindow} (ring of buckets, subtract on evict) and
 *       {@link org.irmi.monitors.LatencyWindow} (HdrHistogram recorders).</li>
 *   <li>Monitors: {@link org.irmi.monitors.CausalPairMonitor}, {@link org.irmi.monitors.LocalResourceMonitor},
 *       {@link org.irmi.monitors.RequestCostMonitor}, {@link org.irmi.monitors.OperationLatencyMonitor},
 *       {@link org.irmi.monitors.RemoteLoadStore} with {@link org.irmi.monitors.LoadReport} and its codec.</li>
 *   <li>Edges: {@link org.irmi.monitors.EdgeDetector}, a pure core.</li>
 *   <li>Metrics: one Micrometer binder per monitor; {@link org.irmi.monitors.PrometheusEndpoint}.</li>
 * </ul>
 * Implementations live in {@code org.irmi.monitors.internal}. See docs/monitors.md.
 */
package org.irmi.monitors;
