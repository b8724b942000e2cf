package org.irmi.isolation.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.irmi.isolation.AdaptationModule;
import org.irmi.isolation.CausalPairStatus;
import org.irmi.isolation.Decision;
import org.irmi.isolation.Evidence;
import org.irmi.isolation.LocalLoad;
import org.irmi.isolation.OutgoingCall;
import org.irmi.isolation.PointKind;
import org.irmi.isolation.RemoteHostStatus;
import org.irmi.isolation.RemoteLoad;
import org.irmi.isolation.SlowClientPoint;
import org.irmi.isolation.Trigger;
import org.irmi.monitors.CausalPairMonitor;
import org.irmi.monitors.Clock;
import org.irmi.monitors.LoadReport;
import org.irmi.monitors.PairSnapshot;
import org.irmi.monitors.RemoteHostSnapshot;
import org.irmi.monitors.RemoteLoadStore;
import org.irmi.monitors.StreamKey;
import org.irmi.sla.CausalPair;
import org.irmi.sla.MonitorsConfig;
import org.irmi.sla.SlowClientConfig;

/**
 * The slow-client point. The call path does a map lookup and a volatile read when nothing is
 * triggered; the windows and the policy run in {@link #tick} only.
 *
 * <p>Its windows are the monitors': a {@link CausalPairMonitor} counts each pair's incoming and
 * outgoing calls and gives, at each tick, the pair's rates and queue estimate over the request-rates
 * window; a {@link RemoteLoadStore} keeps each target host's load reports and smoothed round trip
 * over the remote-resources window. The point keeps only its decisions (which pairs and hosts are
 * triggered, with what evidence).
 *
 * <p>THREADING: {@link #onIncoming}, {@link #beforeMarshalling} and {@link #onReply} run on
 * application threads and take no lock of the point's: they add to the monitors, whose recording
 * is lock-free (a {@code LongAdder}, and a wait-free add to a bucket ring, whose first recorder in a
 * new bucket rotates it); the round trip is smoothed by compare-and-set. {@link #tick} runs on ONE
 * TICKING THREAD, which alone advances the pairs' windows.
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
    private final Clock clock;
    private final CausalPairMonitor pairs;
    private final RemoteLoadStore remote;
    private final Map<String, PairState> byName = new LinkedHashMap<>();
    /** Pairs whose outgoing glob matches an operation, cached per operation name. */
    private final ConcurrentHashMap<String, PairState[]> byOutgoing = new ConcurrentHashMap<>();
    /** Pairs whose incoming glob matches an operation, cached per operation name. */
    private final ConcurrentHashMap<String, PairState[]> byIncoming = new ConcurrentHashMap<>();
    /** The hosts that advertise overload now, with their evidence: replaced whole at each tick. */
    private volatile Map<String, Evidence> triggeredHosts = Map.of();
    private final ConcurrentHashMap<String, LongSupplier> gauges = new ConcurrentHashMap<>();

    /** One causal pair's decision state; its counts and window are in {@link #pairs}. */
    private static final class PairState {
        final CausalPair pair;
        volatile String lastHost;
        volatile boolean triggered;
        volatile Evidence evidence = Evidence.NONE;
        /** The window after the last tick (for dashboards). */
        volatile PairSnapshot last;
        volatile double appQueue = Double.NaN;
        long triggeredAtNanos;

        PairState(CausalPair pair) {
            this.pair = pair;
        }
    }

    /**
     * @param config   the point's thresholds
     * @param monitors the causal pairs, their rate window and the remote-resources window
     * @param clock    the runtime's one time source; the point and its windows read its monotonic time only
     */
    public DefaultSlowClientPoint(SlowClientConfig config, MonitorsConfig monitors, AdaptationModule module,
                                  DecisionRecorder recorder, Supplier<LocalLoad> localLoad, Clock clock) {
        this.config = config;
        this.module = module;
        this.recorder = recorder;
        this.localLoad = localLoad;
        this.clock = clock;
        this.reportMaxAgeNanos = monitors.remoteResources().length().toNanos();
        Map<String, Double> fanOuts = new LinkedHashMap<>();
        for (CausalPair p : monitors.causalPairs()) {
            byName.put(p.name(), new PairState(p));
            fanOuts.put(p.name(), p.fanOut());
        }
        this.pairs = CausalPairMonitor.of(fanOuts, monitors.requestRates(), clock);
        this.remote = RemoteLoadStore.of(monitors.remoteResources(), clock);
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
            pairs.recordOutgoing(pair.pair.name());
            pair.lastHost = call.targetHost();
            if (pair.triggered && evidence == null) {
                evidence = pair.evidence;
            }
        }
        if (evidence == null) {
            evidence = triggeredHosts.get(call.targetHost());
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
                clock.nanoTime()));
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
        if (report != null) {
            remote.onReport(call.targetHost(), loadReport(report), report.receivedAtNanos());
        }
        if (rttNanos > 0) {
            remote.onRoundTrip(call.targetHost(), rttNanos);
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
            pairs.recordIncoming(p.pair.name());
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
        List<PairSnapshot> windows = pairs.tick(nowNanos); // in byName's order: both are the SLA's
        int i = 0;
        for (PairState p : byName.values()) {
            PairSnapshot s = windows.get(i++);
            LongSupplier gauge = gaugeFor(p);
            double appQueue = gauge == null ? Double.NaN : gauge.getAsLong();
            String hostName = p.lastHost;
            RemoteHostSnapshot host = hostName == null ? null : remote.snapshot(hostName).orElse(null);
            double rtt = Double.NaN;
            // a stale round trip says nothing: calls may all have been diverted since
            if (host != null && nowNanos - host.rttAtNanos() <= reportMaxAgeNanos) {
                rtt = host.smoothedRttNanos();
            }
            SlowClientPolicy.Verdict v = SlowClientPolicy.evaluate(config, reportMaxAgeNanos, p.triggered,
                    p.triggeredAtNanos, nowNanos, new SlowClientPolicy.Inputs(s.estimatedQueueLength(),
                            s.queueGrowthPerSecond(), s.incomingPerSecond(), s.outgoingPerSecond(), appQueue,
                            local, remoteLoad(host), rtt));
            if (v.triggered() && !p.triggered) {
                p.triggeredAtNanos = nowNanos;
            }
            p.evidence = v.evidence();
            p.triggered = v.triggered();
            p.last = s;
            p.appQueue = appQueue;
        }
        Map<String, Evidence> over = new java.util.HashMap<>();
        for (String hostName : remote.hosts()) {
            RemoteLoad r = remoteLoad(remote.snapshot(hostName).orElse(null));
            boolean fresh = r != null
                    && nowNanos - r.receivedAtNanos() <= reportMaxAgeNanos;
            if (config.reactToPeerOverload() && fresh && r.overloaded()) {
                over.put(hostName, Evidence.builder().put("remoteOverloaded", 1)
                        .put("remoteCpu", r.cpu()).put("remoteHeapPressure", r.heapPressure())
                        .put("remoteQueue", r.queueLength())
                        .put("remoteGcPerSecond", r.gcPerSecond()).build());
            }
        }
        triggeredHosts = Map.copyOf(over);
    }

    /** @return the host's latest report as the policy reads it, or null when it sent none */
    private static RemoteLoad remoteLoad(RemoteHostSnapshot host) {
        return host == null || host.latest() == null ? null : RemoteLoad.from(host.latest(), host.latestAtNanos());
    }

    /**
     * The report as the monitors store it. Exact for every report that came off the wire (those are
     * {@link RemoteLoad#from} a {@link LoadReport}): the fractions are whole permille, GC per second
     * whole per minute, and {@code overloaded} already folds in a poison episode.
     */
    private static LoadReport loadReport(RemoteLoad r) {
        return new LoadReport(permille(r.cpu()), permille(r.heapPressure()), Math.max(0, r.queueLength()), 0,
                (int) Math.min(LoadReport.MAX_GC_PER_MINUTE, Math.round(Math.max(0.0, r.gcPerSecond()) * 60.0)),
                r.overloaded(), false);
    }

    private static int permille(double fraction) {
        return fraction > 0 ? (int) Math.min(LoadReport.MAX_PERMILLE, Math.round(fraction * 1000.0)) : 0;
    }

    @Override
    public boolean isTriggered(String pairName) {
        PairState p = byName.get(pairName);
        return p != null && p.triggered;
    }

    @Override
    public boolean isHostTriggered(String host) {
        if (triggeredHosts.containsKey(host)) {
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
    public List<CausalPairStatus> pairStatuses() {
        List<CausalPairStatus> out = new ArrayList<>();
        for (PairState p : byName.values()) {
            PairSnapshot s = p.last;
            CausalPair c = p.pair;
            PairSnapshot w = new PairSnapshot(c.name(), c.fanOut(),
                    s == null ? 0 : s.incomingPerSecond(), s == null ? 0 : s.outgoingPerSecond(),
                    s == null ? 0 : s.queueGrowthPerSecond(), s == null ? 0 : s.estimatedQueueLength(),
                    Double.isNaN(p.appQueue) ? OptionalLong.empty() : OptionalLong.of((long) p.appQueue));
            out.add(new CausalPairStatus(c, w, p.lastHost, p.triggered, p.evidence));
        }
        return out;
    }

    @Override
    public List<RemoteHostStatus> hostStatuses() {
        List<RemoteHostStatus> out = new ArrayList<>();
        for (String host : new TreeSet<>(remote.hosts())) {
            Optional<RemoteHostSnapshot> s = remote.snapshot(host);
            if (s.isPresent()) { // absent if evicted since hosts() was read
                out.add(new RemoteHostStatus(host, remoteLoad(s.get()), s.get().smoothedRttNanos(),
                        triggeredHosts.containsKey(host)));
            }
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
