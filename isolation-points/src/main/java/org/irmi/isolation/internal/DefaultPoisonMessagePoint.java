package org.irmi.isolation.internal;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.irmi.isolation.AdaptationModule;
import org.irmi.isolation.Decision;
import org.irmi.isolation.EpisodeReport;
import org.irmi.isolation.Evidence;
import org.irmi.isolation.IncomingRequest;
import org.irmi.isolation.PointKind;
import org.irmi.isolation.PoisonMessagePoint;
import org.irmi.sla.PoisonConfig;
import org.irmi.isolation.Trigger;
import org.irmi.monitors.StreamKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The poison-message point. The reader path is a map put (and, only while something is filtered,
 * a map get); dispatch ends are a map remove and three adder increments (and, while an analysed
 * episode has requests that outlived its analysis, a set remove). Edges and the episode analysis
 * take the episode lock, which the reader path never takes; a dispatch end takes it only for a
 * request that outlived its episode's analysis.
 *
 * <p>Its parts: {@link RequestSignatures} names each request, {@link InFlightRequests} tracks the
 * admitted ones, {@link SignatureCost} sums their cost, {@link SuspectAnalyzer} names the suspects
 * of an episode, {@link OutlivingRequests} keeps an analysed episode's requests that had not ended
 * (named by cost when they end), {@link FilterEntry} heals each filtered signature, and
 * {@link EpisodeReportLog} keeps the last reports.
 */
public final class DefaultPoisonMessagePoint implements PoisonMessagePoint {
    private static final Logger LOG = LoggerFactory.getLogger("irmi.poison");

    private final PoisonConfig config;
    private final RequestSignatures signatures;
    private final AdaptationModule module;
    private final DecisionRecorder recorder;
    private final LongSupplier nanoClock;
    private final InFlightRequests inFlight = new InFlightRequests();
    private final ConcurrentHashMap<String, FilterEntry> filters = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, SignatureCost> baseline = new ConcurrentHashMap<>();
    private final SuspectAnalyzer analyzer;
    private final Object episodeLock = new Object();
    private final EpisodeReportLog reports = new EpisodeReportLog();

    /** Costs of the current episode, or null outside one. Written under the episode lock. */
    private volatile ConcurrentHashMap<String, SignatureCost> episodeCosts;
    /** S1 requests still in flight at the falling edge; analysis waits for them. */
    private volatile Set<Long> pendingKeys;
    /**
     * The last analysed episode's requests that were still running at its analysis, or null: one of
     * them that ends is judged by cost as part of that episode. Published before {@link #episodeCosts}
     * is cleared, and read after it, so a request that ends outside an episode sees the current one.
     */
    private volatile OutlivingRequests outliving;
    private volatile long risingEdges;
    /** Analyses (or late namings) that named a suspect. Written under the episode lock. */
    private volatile long suspectsNamed;
    private volatile long lastOverloadNanos = Long.MIN_VALUE / 2;
    private volatile boolean inEpisode;
    /** A falling edge came before minEpisode: the episode waits this long for a new rise. */
    private volatile boolean suspended;
    private long suspendedUntilNanos;
    private volatile long risingNanosVolatile;
    // episode lock only:
    private Set<String> s1;
    private Set<String> s2;
    private long risingNanos;
    private long fallingNanos;
    /** The value of risingEdges when the open episode began (resumes raise risingEdges, not this). Episode lock. */
    private long episodeFirstEdge;
    private long pendingDeadlineNanos;
    /** The requests in flight at the falling edge of the episode awaiting analysis. Episode lock. */
    private Set<Long> keysAtFall = Set.of();

    public DefaultPoisonMessagePoint(PoisonConfig config, AdaptationModule module,
                                     DecisionRecorder recorder, LongSupplier nanoClock) {
        this.config = config;
        this.signatures = new RequestSignatures(config.signatures());
        this.module = module;
        this.recorder = recorder;
        this.nanoClock = nanoClock;
        this.analyzer = new SuspectAnalyzer(config);
    }

    /** @return the request's signature: its operation, plus argument bytes when a signature says so. */
    public String signatureOf(IncomingRequest request) {
        return signatures.of(request);
    }

    @Override
    public Decision onRequestHeader(IncomingRequest request) {
        String sig = signatureOf(request);
        boolean probe = false;
        if (!filters.isEmpty()) {
            FilterEntry entry = filters.get(sig);
            if (entry != null) {
                long now = nanoClock.getAsLong();
                FilterEntry.Admission a;
                synchronized (entry) {
                    a = entry.onRequest(now, config);
                }
                if (a == FilterEntry.Admission.REFUSE) {
                    return refuse(request, sig, entry, now);
                }
                if (a == FilterEntry.Admission.ADMIT) {
                    filters.remove(sig, entry);
                } else {
                    probe = true;
                    LOG.info("irmi.poison probation probe admitted signature={} stream={}", sig,
                            request.stream());
                }
            }
        }
        inFlight.admit(request.requestKey(), sig, probe, risingEdges);
        recorder.countProceed(PointKind.POISON_MESSAGE);
        return Decision.PROCEED;
    }

    private Decision refuse(IncomingRequest request, String sig, FilterEntry entry, long now) {
        StreamKey stream = request.stream();
        Evidence evidence;
        synchronized (entry) {
            evidence = entry.refusalEvidence();
        }
        Decision d = module.decide(new Trigger(PointKind.POISON_MESSAGE, stream, request,
                evidence, now)).enforceableOnReaderThread();
        recorder.record(PointKind.POISON_MESSAGE, stream, module.name() + ":" + sig, d, evidence);
        if (d instanceof Decision.Proceed) {
            inFlight.admit(request.requestKey(), sig, false, risingEdges);
        }
        return d;
    }

    @Override
    public void onDispatchStart(long requestKey) {
        // the in-flight set is kept from the header on; queued requests count as in flight too,
        // which only widens S1 and S2 alike
    }

    @Override
    public void onDispatchEnd(long requestKey, long cpuNanos, long allocatedBytes) {
        InFlightRequests.Admitted f = inFlight.end(requestKey);
        if (f == null) {
            return;
        }
        ConcurrentHashMap<String, SignatureCost> episode = episodeCosts;
        OutlivingRequests out = episode == null ? outliving : null; // read after episodeCosts (see outliving)
        Set<Long> pending = pendingKeys;
        boolean pendingHit = pending != null && pending.remove(requestKey);
        ConcurrentHashMap<String, SignatureCost> target = episode != null ? episode : baseline;
        target.computeIfAbsent(f.signature(), k -> new SignatureCost()).add(cpuNanos, allocatedBytes);
        if (f.probe()) {
            probeDone(f, cpuNanos, allocatedBytes);
        }
        if (out != null && out.endedHere(requestKey)) {
            outlived(out, f.signature(), cpuNanos, allocatedBytes);
        }
        if (pendingHit && pending.isEmpty()) {
            synchronized (episodeLock) {
                if (pendingKeys == pending) {
                    analyse(nanoClock.getAsLong());
                }
            }
        }
    }

    private void probeDone(InFlightRequests.Admitted f, long cpuNanos, long allocatedBytes) {
        FilterEntry entry = filters.get(f.signature());
        if (entry == null) {
            return;
        }
        CostTotals base = CostTotals.ZERO;
        for (SignatureCost c : baseline.values()) {
            base = base.plus(c.totals());
        }
        boolean costly = base.requests() >= config.naming().minBaselineRequests()
                && ((cpuNanos > 0 && cpuNanos >= config.naming().costFactor() * base.cpuPerRequest())
                || (allocatedBytes > 0
                && allocatedBytes >= config.naming().costFactor() * base.allocatedPerRequest()));
        boolean edgeMeanwhile = risingEdges != f.risingEdgesAtAdmission() || inEpisode;
        boolean healthy = !costly && !edgeMeanwhile;
        long now = nanoClock.getAsLong();
        FilterEntry.Phase phase;
        synchronized (entry) {
            phase = entry.onProbeDone(now, healthy, config);
        }
        LOG.info("irmi.poison probation probe signature={} healthy={} cpuNanos={} allocatedBytes={}"
                + " edgeMeanwhile={} phase={}", f.signature(), healthy, cpuNanos, allocatedBytes,
                edgeMeanwhile, phase);
        if (phase == FilterEntry.Phase.READMITTED) {
            filters.remove(f.signature(), entry);
        }
    }

    @Override
    public void onRisingEdge(long nowNanos, Evidence evidence) {
        synchronized (episodeLock) {
            if (suspended && nowNanos <= suspendedUntilNanos) {
                // the edge detector flapped inside one sustained problem: the same episode goes on
                suspended = false;
                inEpisode = true;
                risingEdges++;
                LOG.info("irmi.poison episode resumed (rising edge {} ms after a short falling edge)",
                        (nowNanos - (suspendedUntilNanos - config.minEpisode().toNanos())) / 1_000_000);
                return;
            }
            if (suspended) {
                discardSuspended();
            }
            if (pendingKeys != null) {
                // the problem came back while requests of S1 were still running: the same
                // episode goes on (its costs keep accumulating; S2 is taken at the next fall)
                pendingKeys = null;
                inEpisode = true;
                risingEdges++;
                LOG.info("irmi.poison episode resumed (rising edge while S1 requests still ran)");
                return;
            }
            if (inEpisode) {
                return;
            }
            s1 = inFlight.signatures();
            episodeFirstEdge = risingEdges + 1; // the value risingEdges takes below
            risingNanos = nowNanos;
            risingNanosVolatile = nowNanos;
            episodeCosts = new ConcurrentHashMap<>();
            risingEdges++;
            inEpisode = true;
            LOG.info("irmi.poison rising edge S1={} evidence={}", s1, evidence);
        }
    }

    /** Episode lock held. */
    private void discardSuspended() {
        suspended = false;
        episodeCosts = null; // a blip: no analysis
        LOG.info("irmi.poison episode ignored: shorter than poison.minEpisode ({} ms) and not resumed",
                config.minEpisode().toNanos() / 1_000_000);
    }

    @Override
    public void onFallingEdge(long nowNanos, Evidence evidence) {
        synchronized (episodeLock) {
            if (!inEpisode) {
                return;
            }
            inEpisode = false;
            if (nowNanos - risingNanos < config.minEpisode().toNanos()) {
                // too short so far: a blip, unless the detector flapped and rises again soon
                suspended = true;
                suspendedUntilNanos = nowNanos + config.minEpisode().toNanos();
                return;
            }
            lastOverloadNanos = nowNanos;
            s2 = inFlight.signaturesAdmittedSince(episodeFirstEdge);
            keysAtFall = inFlight.keys();
            fallingNanos = nowNanos;
            LOG.info("irmi.poison falling edge S2={} evidence={}", s2, evidence);
            // requests of S1 still running: their cost is not known yet; wait for them
            Set<Long> pending = inFlight.keysAdmittedBefore(risingEdges, s1);
            if (pending.isEmpty()) {
                analyse(nowNanos);
            } else {
                pendingKeys = pending;
                pendingDeadlineNanos = nowNanos + 2 * (nowNanos - risingNanos) + 1_000_000_000L;
            }
        }
    }

    @Override
    public void tick(long nowNanos) {
        if (suspended) {
            synchronized (episodeLock) {
                if (suspended && nowNanos > suspendedUntilNanos) {
                    discardSuspended();
                }
            }
        }
        if (pendingKeys != null) {
            synchronized (episodeLock) {
                if (pendingKeys != null && nowNanos >= pendingDeadlineNanos) {
                    analyse(nowNanos);
                }
            }
        }
    }

    /** Episode lock held. */
    private void analyse(long nowNanos) {
        ConcurrentHashMap<String, SignatureCost> costs = episodeCosts;
        OutlivingRequests out = config.attribution() ? new OutlivingRequests(keysAtFall) : null;
        keysAtFall = Set.of();
        outliving = out; // before episodeCosts is cleared: a request that ends outside the episode finds it
        episodeCosts = null;
        pendingKeys = null;
        if (out != null) {
            out.retainRunning(inFlight); // the others' costs are in the episode
        }
        Map<String, CostTotals> ep = SignatureCost.totals(costs);
        Map<String, CostTotals> base = SignatureCost.totals(baseline);
        Set<String> protectedOrFiltered = new HashSet<>(filters.keySet());
        for (String sig : s1) {
            if (config.isProtected(RequestSignatures.operationOf(sig))) {
                protectedOrFiltered.add(sig);
            }
        }
        for (String sig : ep.keySet()) {
            if (config.isProtected(RequestSignatures.operationOf(sig))) {
                protectedOrFiltered.add(sig);
            }
        }
        if (!config.attribution()) {
            ep.replaceAll((k, c) -> new CostTotals(c.requests(), 0, 0));
        }
        SuspectAnalyzer.Verdict v = analyzer.onEpisode(s1, s2, ep, base, protectedOrFiltered);
        for (String sig : v.toFilter()) {
            filters.putIfAbsent(sig, new FilterEntry(nowNanos, config.coolDown().toNanos()));
            lastOverloadNanos = nowNanos;
        }
        if (v.namedByCost() != null || !v.toFilter().isEmpty()) {
            suspectsNamed++;
        }
        if (out != null) {
            if (v.namedByCost() != null || out.isEmpty()) {
                outliving = null; // one name by cost per episode, as below
            } else {
                out.settle(v.episode(), risingNanos, fallingNanos, s1, ep, base);
            }
        }
        EpisodeReport report = new EpisodeReport(v.episode(), risingNanos, fallingNanos,
                Set.copyOf(s1), v.suspects(), v.narrowed(), v.namedByCost(), v.toFilter(), v.evidence());
        reports.add(report);
        LOG.info("irmi.poison episode={} suspects={} narrowed={} namedByCost={} filtered={} "
                + "evidence={}", v.episode(), v.suspects(), v.narrowed(), v.namedByCost(),
                v.toFilter(), v.evidence());
    }

    /**
     * A request of an analysed episode ended after the analysis: named by cost as part of that
     * episode when it passes the episode's test ({@link SuspectAnalyzer#nameOutliving}). Any
     * dispatch thread; takes the episode lock (only for these requests).
     */
    private void outlived(OutlivingRequests out, String sig, long cpuNanos, long allocatedBytes) {
        synchronized (episodeLock) {
            if (outliving != out) {
                return; // the episode named its offender already, or a later analysis took over
            }
            if (out.isEmpty()) {
                outliving = null;
            }
            if (filters.containsKey(sig) || config.isProtected(RequestSignatures.operationOf(sig))) {
                return;
            }
            SignatureCost one = new SignatureCost();
            one.add(cpuNanos, allocatedBytes);
            java.util.Optional<Evidence> named = analyzer.nameOutliving(out.episode(), sig, one.totals(),
                    out.episodeCosts(), out.baselineCosts());
            if (named.isEmpty()) {
                return;
            }
            long now = nanoClock.getAsLong();
            filters.putIfAbsent(sig, new FilterEntry(now, config.coolDown().toNanos()));
            lastOverloadNanos = now;
            outliving = null; // one name by cost per episode
            suspectsNamed++;
            reports.add(new EpisodeReport(out.episode(), out.risingNanos(), out.fallingNanos(),
                    out.inFlightAtRise(), Set.of(), analyzer.narrowed(), sig, Set.of(sig), named.get()));
            LOG.info("irmi.poison episode={} suspects=[] narrowed={} namedByCost={} filtered=[{}] evidence={}"
                    + " (a request that ended after the episode's analysis)", out.episode(), analyzer.narrowed(),
                    sig, sig, named.get());
        }
    }

    @Override
    public int argumentBytesWanted(String operation) {
        return signatures.argumentBytesWanted(operation);
    }

    @Override
    public boolean advertisesOverload(long nowNanos) {
        // a blip shorter than minEpisode is not advertised: callers would shed load for nothing
        return (inEpisode && nowNanos - risingNanosVolatile >= config.minEpisode().toNanos())
                || nowNanos - lastOverloadNanos < config.advertiseOverload().toNanos();
    }

    @Override
    public Set<String> filtered() {
        return Set.copyOf(filters.keySet());
    }

    @Override
    public int episodes() {
        synchronized (episodeLock) {
            return analyzer.episodes();
        }
    }

    @Override
    public List<EpisodeReport> episodeReports() {
        return reports.list();
    }

    @Override
    public void filter(String signature, long nowNanos) {
        if (config.isProtected(RequestSignatures.operationOf(signature))) {
            throw new IllegalArgumentException("`" + signature + "` matches poison.neverFilter");
        }
        filters.putIfAbsent(signature, new FilterEntry(nowNanos, config.coolDown().toNanos()));
        LOG.info("irmi.poison filtered by hand signature={}", signature);
    }

    @Override
    public List<org.irmi.isolation.FilterStatus> filterStatuses(long nowNanos) {
        List<org.irmi.isolation.FilterStatus> out = new java.util.ArrayList<>();
        for (Map.Entry<String, FilterEntry> e : new java.util.TreeMap<>(filters).entrySet()) {
            FilterEntry f = e.getValue();
            org.irmi.isolation.FilterStatus status;
            synchronized (f) {
                status = f.status(e.getKey(), nowNanos);
            }
            if (status != null) {
                out.add(status);
            }
        }
        return out;
    }

    @Override
    public java.util.Optional<EpisodeReport> openEpisode() {
        Set<String> atRise;
        long rise;
        ConcurrentHashMap<String, SignatureCost> costs;
        int number;
        synchronized (episodeLock) {
            if (!inEpisode || s1 == null) {
                return java.util.Optional.empty();
            }
            atRise = Set.copyOf(s1);
            rise = risingNanos;
            costs = episodeCosts;
            number = analyzer.episodes() + 1;
        }
        Set<String> suspects = new java.util.TreeSet<>(atRise);
        suspects.removeAll(inFlight.signatures());
        Evidence.Builder ev = Evidence.builder();
        new java.util.TreeMap<>(SignatureCost.totals(costs)).forEach((sig, c) -> ev.put(sig + ".requests", c.requests())
                .put(sig + ".cpuNanosPerRequest", c.cpuPerRequest())
                .put(sig + ".allocatedBytesPerRequest", c.allocatedPerRequest()));
        return java.util.Optional.of(new EpisodeReport(number, rise, -1, atRise, Set.copyOf(suspects), Set.of(),
                null, Set.of(), ev.build()));
    }

    @Override
    public boolean watching() {
        return inEpisode || suspended || pendingKeys != null;
    }

    @Override
    public long suspectsNamed() {
        return suspectsNamed;
    }

    /** @return requests in flight now (a gauge). */
    public int inFlightCount() {
        return inFlight.size();
    }

    /** @return whether an episode is open. */
    public boolean inEpisode() {
        return inEpisode;
    }
}
