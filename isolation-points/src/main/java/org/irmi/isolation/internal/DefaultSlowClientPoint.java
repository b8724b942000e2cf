package org.irmi.isolation.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.irmi.isolation.AdaptationModule;
import org.irmi.isolation.Decision;
import org.irmi.isolation.Evidence;
import org.irmi.isolation.LocalLoad;
import org.irmi.isolation.OutgoingCall;
import org.irmi.isolation.PointKind;
import org.irmi.isolation.RemoteLoad;
import org.irmi.isolation.SlowClientPoint;
import org.irmi.isolation.Trigger;
import org.irmi.monitors.StreamKey;
import org.irmi.sla.CausalPair;
import org.irmi.sla.MonitorsConfig;
import org.irmi.sla.SlowClientConfig;

/**
 * The slow-client point. The call path does a map lookup and a volatile read when nothing is
 * triggered; the windows and the policy run in {@link #tick} only.
 *
 * <p>Every call that passes the point counts as "out" for its pair, whatever the decision: a
 * short-circuited, rejected or forwarded call has left this node's queue too (the paper's Fig. 5
 * shows the out-rate rising when calls are eliminated).
 */
public final class DefaultSlowClientPoint implements SlowClientPoint {
    private final SlowClientConfig config;
    private final AdaptationModule module;
    private final DecisionRecorder recorder;
    private final Supplier<LocalLoad> localLoad;
    /** How long a target host's report (and round trip) counts: the monitors' remote-resources window. */
    private final long reportMaxAgeNanos;
    private final LongSupplier nanoClock;
    private final Map<String, PairState> byName = new LinkedHashMap<>();
    /** Pairs whose outgoing glob matches an operation, cached per operation name. */
    private final ConcurrentHashMap<String, PairState[]> byOutgoing = new ConcurrentHashMap<>();
    /** Pairs whose incoming glob matches an operation, cached per operation name. */
    private final ConcurrentHashMap<String, PairState[]> byIncoming = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, HostState> hosts = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, LongSupplier> gauges = new ConcurrentHashMap<>();

    /** One causal pair: counters written by callers, window owned by the ticker. */
    private static final class PairState {
        final CausalPair pair;
        final LongAdder in = new LongAdder();
        final LongAdder out = new LongAdder();
        final PairWindow window;
        volatile String lastHost;
        volatile boolean triggered;
        volatile Evidence evidence = Evidence.NONE;
        /** The window after the last tick (for dashboards). */
        volatile PairWindow.Sample last;
        volatile double appQueue = Double.NaN;
        long triggeredAtNanos;

        PairState(CausalPair pair, long windowNanos) {
            this.pair = pair;
            this.window = new PairWindow(windowNanos, pair.fanOut());
        }
    }

    /** One remote host: its latest report and whether it advertises overload. */
    private static final class HostState {
        volatile RemoteLoad report;
        /** Smoothed round trip (EWMA, weight 1/4 per reply); written under the state's lock. */
        double rttNanos = Double.NaN;
        long rttAtNanos;
        volatile boolean triggered;
        volatile Evidence evidence = Evidence.NONE;
    }

    /**
     * @param config   the point's thresholds
     * @param monitors the causal pairs, their rate window and the remote-resources window
     */
    public DefaultSlowClientPoint(SlowClientConfig config, MonitorsConfig monitors, AdaptationModule module,
                                  DecisionRecorder recorder, Supplier<LocalLoad> localLoad,
                                  LongSupplier nanoClock) {
        this.config = config;
        this.module = module;
        this.recorder = recorder;
        this.localLoad = localLoad;
        this.nanoClock = nanoClock;
        this.reportMaxAgeNanos = monitors.remoteResources().length().toNanos();
        for (CausalPair p : monitors.causalPairs()) {
            byName.put(p.name(), new PairState(p, monitors.requestRates().length().toNanos()));
        }
    }

    private PairState[] outgoingPairs(String operation) {
        PairState[] ps = byOutgoing.get(operation);
        if (ps == null) {
            List<PairState> l = new ArrayList<>();
            for (PairState s : byName.values()) {
                if (s.pair.outgoing().matches(operation)) {
                    l.add(s);
                }
            }
            ps = l.toArray(new PairState[0]);
            if (byOutgoing.size() < 10_000) { // bounded: operation names come from IDL
                byOutgoing.put(operation, ps);
            }
        }
        return ps;
    }

    @Override
    public Decision beforeMarshalling(OutgoingCall call) {
        Evidence evidence = null;
        for (PairState pair : outgoingPairs(call.operation())) {
            if (!call.targetMatches(pair.pair.target())) { // the operation matched in outgoingPairs
                continue;
            }
            pair.out.increment();
            pair.lastHost = call.targetHost();
            if (pair.triggered && evidence == null) {
                evidence = pair.evidence;
            }
        }
        if (evidence == null) {
            HostState host = hosts.get(call.targetHost());
            if (host != null && host.triggered) {
                evidence = host.evidence;
            }
        }
        if (evidence == null && module.consultedOnEveryCall()) {
            evidence = Evidence.NONE;
        }
        if (evidence == null || !guarded(call)) {
            recorder.countProceed(PointKind.SLOW_CLIENT);
            return Decision.PROCEED;
        }
        StreamKey stream = call.stream();
        Decision d = module.decide(new Trigger(PointKind.SLOW_CLIENT, stream, call, evidence,
                nanoClock.getAsLong()));
        if (evidence == Evidence.NONE && d instanceof Decision.Proceed) {
            recorder.countProceed(PointKind.SLOW_CLIENT); // an untriggered call the module let go
        } else {
            recorder.record(PointKind.SLOW_CLIENT, stream, module.name(), d, evidence);
        }
        return d;
    }

    /** The SLA's targets glob matches the target host, {@code host:port} or the object key. */
    private boolean guarded(OutgoingCall call) {
        return config.guards(call.targetHost(), call.operation())
                || config.guards(call.objectKey(), call.operation())
                || config.guards(call.targetHost() + ":" + call.targetPort(), call.operation());
    }

    @Override
    public void onReply(OutgoingCall call, long rttNanos, RemoteLoad report) {
        if (report == null && (rttNanos <= 0 || config.remoteLoad().rtt().isZero())) {
            return;
        }
        HostState h = hosts.computeIfAbsent(call.targetHost(), k -> new HostState());
        if (report != null) {
            h.report = report;
        }
        if (rttNanos > 0) {
            long now = nanoClock.getAsLong();
            synchronized (h) {
                h.rttNanos = Double.isNaN(h.rttNanos) ? rttNanos : h.rttNanos + (rttNanos - h.rttNanos) / 4;
                h.rttAtNanos = now;
            }
        }
    }

    @Override
    public void onIncoming(String operation) {
        PairState[] ps = byIncoming.get(operation);
        if (ps == null) {
            List<PairState> l = new ArrayList<>();
            for (PairState s : byName.values()) {
                if (s.pair.incoming().matches(operation)) {
                    l.add(s);
                }
            }
            ps = l.toArray(new PairState[0]);
            if (byIncoming.size() < 10_000) {
                byIncoming.put(operation, ps);
            }
        }
        for (PairState p : ps) {
            p.in.increment();
        }
    }

    @Override
    public void registerQueueGauge(String gaugeName, LongSupplier queueLength) {
        gauges.put(gaugeName, queueLength);
    }

    private LongSupplier gaugeFor(PairState p) {
        if (config.queueGauge().isPresent()) {
            LongSupplier g = gauges.get(config.queueGauge().get());
            if (g != null) {
                return g;
            }
        }
        return gauges.get(p.pair.name());
    }

    @Override
    public synchronized void tick(long nowNanos) {
        LocalLoad local = localLoad.get();
        if (local == null) {
            local = LocalLoad.UNKNOWN;
        }
        for (PairState p : byName.values()) {
            PairWindow.Sample s = p.window.onTick(nowNanos, p.in.sum(), p.out.sum());
            LongSupplier gauge = gaugeFor(p);
            double appQueue = gauge == null ? Double.NaN : gauge.getAsLong();
            String hostName = p.lastHost;
            HostState host = hostName == null ? null : hosts.get(hostName);
            RemoteLoad remote = host == null ? null : host.report;
            double rtt = Double.NaN;
            if (host != null) {
                synchronized (host) {
                    // a stale round trip says nothing: calls may all have been diverted since
                    if (nowNanos - host.rttAtNanos <= reportMaxAgeNanos) {
                        rtt = host.rttNanos;
                    }
                }
            }
            SlowClientPolicy.Verdict v = SlowClientPolicy.evaluate(config, reportMaxAgeNanos, p.triggered,
                    p.triggeredAtNanos, nowNanos, new SlowClientPolicy.Inputs(s.queueEstimate(),
                            s.growthPerSecond(), s.inRate(), s.outRate(), appQueue, local, remote, rtt));
            if (v.triggered() && !p.triggered) {
                p.triggeredAtNanos = nowNanos;
            }
            p.evidence = v.evidence();
            p.triggered = v.triggered();
            p.last = s;
            p.appQueue = appQueue;
        }
        for (HostState h : hosts.values()) {
            RemoteLoad r = h.report;
            boolean fresh = r != null
                    && nowNanos - r.receivedAtNanos() <= reportMaxAgeNanos;
            boolean over = config.reactToPeerOverload() && fresh && r.overloaded();
            if (over) {
                h.evidence = Evidence.builder().put("remoteOverloaded", 1)
                        .put("remoteCpu", r.cpu()).put("remoteHeapPressure", r.heapPressure())
                        .put("remoteQueue", r.queueLength())
                        .put("remoteGcPerSecond", r.gcPerSecond()).build();
            }
            h.triggered = over;
        }
    }

    @Override
    public boolean isTriggered(String pairName) {
        PairState p = byName.get(pairName);
        return p != null && p.triggered;
    }

    @Override
    public boolean isHostTriggered(String host) {
        HostState h = hosts.get(host);
        if (h != null && h.triggered) {
            return true;
        }
        for (PairState p : byName.values()) {
            if (p.triggered && host.equals(p.lastHost)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public List<org.irmi.isolation.CausalPairStatus> pairStatuses() {
        List<org.irmi.isolation.CausalPairStatus> out = new ArrayList<>();
        for (PairState p : byName.values()) {
            PairWindow.Sample s = p.last;
            CausalPair c = p.pair;
            org.irmi.monitors.PairSnapshot w = new org.irmi.monitors.PairSnapshot(c.name(), c.fanOut(),
                    s == null ? 0 : s.inRate(), s == null ? 0 : s.outRate(), s == null ? 0 : s.growthPerSecond(),
                    s == null ? 0 : s.queueEstimate(), Double.isNaN(p.appQueue) ? java.util.OptionalLong.empty()
                    : java.util.OptionalLong.of((long) p.appQueue));
            out.add(new org.irmi.isolation.CausalPairStatus(c, w, p.lastHost, p.triggered, p.evidence));
        }
        return out;
    }

    @Override
    public List<org.irmi.isolation.RemoteHostStatus> hostStatuses() {
        List<org.irmi.isolation.RemoteHostStatus> out = new ArrayList<>();
        for (Map.Entry<String, HostState> e : new java.util.TreeMap<>(hosts).entrySet()) {
            HostState h = e.getValue();
            double rtt;
            synchronized (h) {
                rtt = h.rttNanos;
            }
            out.add(new org.irmi.isolation.RemoteHostStatus(e.getKey(), h.report, rtt, h.triggered));
        }
        return out;
    }

    /** @return the pair's current evidence (for tests and metrics). */
    public Evidence evidence(String pairName) {
        PairState p = byName.get(pairName);
        return p == null ? Evidence.NONE : p.evidence;
    }

    /** @return how many pairs are triggered now (a gauge). */
    public int triggeredPairs() {
        int n = 0;
        for (PairState p : byName.values()) {
            if (p.triggered) {
                n++;
            }
        }
        return n;
    }
}
