package org.irmi.isolation.internal;

import org.irmi.isolation.Evidence;
import org.irmi.isolation.LocalLoad;
import org.irmi.isolation.RemoteLoad;
import org.irmi.sla.SlowClientConfig;

/**
 * Decides whether a causal pair is held up by a slow downstream node. Pure: inputs in, verdict
 * out; no clock, no state.
 *
 * <pre>
 *   Q              = applicationQueue when a gauge is registered, else queueEstimate
 *   queueCondition = growth &gt;= queueGrowthPerSecond or Q &gt;= maxQueueLength
 *   localPressure  = cpu &gt;= cpuPercent or heapPressure &gt;= heapPressurePercent or gc/s &gt;= gcPerSecond
 *   remoteFresh    = a report exists and now - receivedAt &lt;= reportMaxAge (the remote-resources window)
 *   remotePressure = remoteFresh and (cpu &gt;= remoteLoad.cpuPercent or heap &gt;= remoteLoad.heapPressurePercent
 *                    or queue &gt;= remoteLoad.queueLength or gc/s &gt;= remoteLoad.gcPerSecond)
 *                    or (remoteLoad.rtt &gt; 0 and the smoothed round trip to it &gt;= remoteLoad.rtt)
 *   trigger        = reactToPeerOverload and remoteFresh and overloaded           "peer-overload"
 *                 or queueCondition and (localPressure or remotePressure)          "queue+pressure"
 *   a triggered pair stays triggered while trigger holds, or now - since &lt; minHold ("hold"),
 *   or (localPressure or remotePressure) and Q &gt; queueLow ("draining")
 * </pre>
 * The last clause is the hysteresis: a pair is released only once its queue has drained while
 * either node still presses, so that eliminating calls does not flap on and off each tick.
 */
public final class SlowClientPolicy {
    private SlowClientPolicy() {
    }

    /**
     * What the point knows about one pair at one tick.
     *
     * @param queueEstimate     Q from the rates ({@link org.irmi.monitors.CausalPairMonitor#tick})
     * @param growthPerSecond   f * inRate - outRate
     * @param inRate            incoming calls/s
     * @param outRate           outgoing calls/s
     * @param applicationQueue  the application's registered queue gauge, NaN when none
     * @param local             local load, never null ({@link LocalLoad#UNKNOWN})
     * @param remote            the target host's latest report, or null
     * @param remoteRttNanos    the smoothed round trip to the target host, NaN when unknown or stale
     */
    public record Inputs(double queueEstimate, double growthPerSecond, double inRate,
                         double outRate, double applicationQueue, LocalLoad local,
                         RemoteLoad remote, double remoteRttNanos) {
        /** Inputs without a round trip. */
        public Inputs(double queueEstimate, double growthPerSecond, double inRate, double outRate,
                      double applicationQueue, LocalLoad local, RemoteLoad remote) {
            this(queueEstimate, growthPerSecond, inRate, outRate, applicationQueue, local, remote,
                    Double.NaN);
        }
    }

    /** The verdict: triggered or not, why, and the evidence. */
    public record Verdict(boolean triggered, String reason, Evidence evidence) {
    }

    /**
     * @param config           thresholds
     * @param reportMaxAgeNanos how long a target host's report counts (the remote-resources window)
     * @param wasTriggered     whether the pair was triggered before this tick
     * @param triggeredAtNanos when it was triggered (ignored when not)
     * @param nowNanos         this tick's time
     * @param in               the inputs
     */
    public static Verdict evaluate(SlowClientConfig config, long reportMaxAgeNanos, boolean wasTriggered,
                                   long triggeredAtNanos, long nowNanos, Inputs in) {
        double q = Double.isNaN(in.applicationQueue()) ? in.queueEstimate() : in.applicationQueue();
        boolean queueCondition = in.growthPerSecond() >= config.queueGrowthPerSecond()
                || q >= config.maxQueueLength();
        LocalLoad l = in.local();
        boolean localPressure = l.cpu() >= config.cpuPercent() / 100
                || l.heapPressure() >= config.heapPressurePercent() / 100
                || l.gcPerSecond() >= config.gcPerSecond();
        RemoteLoad r = in.remote();
        boolean remoteFresh = r != null
                && nowNanos - r.receivedAtNanos() <= reportMaxAgeNanos;
        boolean remotePressure = remoteFresh && (r.cpu() >= config.remoteLoad().cpuPercent() / 100
                || r.heapPressure() >= config.remoteLoad().heapPressurePercent() / 100
                || r.queueLength() >= config.remoteLoad().queueLength()
                || r.gcPerSecond() >= config.remoteLoad().gcPerSecond());
        boolean slowRtt = config.remoteLoad().rtt().toNanos() > 0
                && in.remoteRttNanos() >= config.remoteLoad().rtt().toNanos();
        remotePressure |= slowRtt;
        boolean pressure = localPressure || remotePressure;

        String reason = null;
        if (config.reactToPeerOverload() && remoteFresh && r.overloaded()) {
            reason = "peer-overload";
        } else if (queueCondition && pressure) {
            reason = "queue+pressure";
        } else if (wasTriggered) {
            if (nowNanos - triggeredAtNanos < config.minHold().toNanos()) {
                reason = "hold";
            } else if (pressure && q > config.queueLow()) {
                reason = "draining";
            }
        }
        Evidence.Builder e = Evidence.builder()
                .put("queueEstimate", in.queueEstimate())
                .put("growthPerSecond", in.growthPerSecond())
                .put("inRate", in.inRate())
                .put("outRate", in.outRate());
        if (!Double.isNaN(in.applicationQueue())) {
            e.put("applicationQueue", in.applicationQueue());
        }
        e.put("cpu", l.cpu()).put("heapPressure", l.heapPressure())
                .put("gcPerSecond", l.gcPerSecond());
        if (remoteFresh) {
            e.put("remoteCpu", r.cpu()).put("remoteHeapPressure", r.heapPressure())
                    .put("remoteQueue", r.queueLength()).put("remoteGcPerSecond", r.gcPerSecond())
                    .put("remoteOverloaded", r.overloaded() ? 1 : 0);
        }
        if (!Double.isNaN(in.remoteRttNanos())) {
            e.put("remoteRttNanos", in.remoteRttNanos());
        }
        return new Verdict(reason != null, reason == null ? "clear" : reason, e.build());
    }
}
