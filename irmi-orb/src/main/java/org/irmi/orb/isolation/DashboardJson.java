package org.irmi.orb.isolation;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

import org.irmi.isolation.CausalPairStatus;
import org.irmi.isolation.Decision;
import org.irmi.isolation.DecisionEvent;
import org.irmi.isolation.EpisodeReport;
import org.irmi.isolation.Evidence;
import org.irmi.isolation.FilterStatus;
import org.irmi.isolation.IsolationRuntime;
import org.irmi.isolation.MinorCodes;
import org.irmi.isolation.PointKind;
import org.irmi.isolation.PoisonMessagePoint;
import org.irmi.isolation.PoisonStatus;
import org.irmi.isolation.RemoteHostStatus;
import org.irmi.isolation.SlowClientPoint;
import org.irmi.isolation.SlowClientStatus;
import org.irmi.monitors.EdgeSample;
import org.irmi.monitors.LocalResourceSnapshot;
import org.irmi.monitors.PairSnapshot;

/**
 * The dashboard's JSON: what {@code /api/state} and {@code /api/decisions} answer. Built from the
 * snapshots the isolation points and the ticker publish; reads no selector-thread state.
 *
 * <p>Units are in the names ({@code ...Nanos}, {@code ...PerSecond}, {@code ...Percent},
 * {@code ...Bytes}); times of day are wall-clock milliseconds ({@code ...AtMillis}); a number
 * that is not known is {@code null}. Evidence is an object of named numbers, in the order the
 * point added them.
 *
 * <p>THREAD-SAFE: stateless apart from the isolation it reads.
 */
final class DashboardJson {

    /** Episode reports shown, newest first. */
    static final int EPISODES_SHOWN = 10;

    private final OrbIsolation isolation;

    DashboardJson(OrbIsolation isolation) {
        this.isolation = isolation;
    }

    /** @return the whole state as one JSON object */
    String state() {
        IsolationRuntime rt = isolation.runtime();
        long nowNanos = rt.nanoClock().getAsLong();
        Json j = new Json().open();
        j.field("service", isolation.slaService());
        j.field("nowMillis", System.currentTimeMillis());
        j.field("startedAtMillis", isolation.startedAtMillis());
        j.field("prometheus", isolation.metricsUrl().orElse(null));
        j.name("sla").open()
                .field("file", isolation.slaFile().getFileName().toString())
                .field("path", isolation.slaFile().toAbsolutePath().toString())
                .field("appliedAtMillis", isolation.slaAppliedAtMillis())
                .field("lastRejection", isolation.slaRejection().orElse(null));
        j.name("objectives").array();
        for (ObjectiveStatus o : isolation.objectiveStatuses()) {
            j.open().field("objective", o.objective())
                    .field("p99TargetNanos", o.p99TargetNanos() < 0 ? null : (Object) o.p99TargetNanos())
                    .field("minThroughputPerSecond", o.minThroughputPerSecond())
                    .field("maxErrorPercent", o.maxErrorPercent())
                    .field("calls", o.calls()).field("p99Nanos", o.p99Nanos())
                    .field("throughputPerSecond", o.throughputPerSecond()).field("errorPercent", o.errorPercent())
                    .field("violated", o.violated()).field("why", o.why()).close();
        }
        j.end().close();
        resources(j, isolation.localResources());
        j.name("decisionCounts").open();
        for (PointKind p : PointKind.values()) {
            j.name(p.metricName()).open();
            for (Decision.Action a : Decision.Action.values()) {
                j.field(a.metricName(), rt.decisions(p, a));
            }
            j.close();
        }
        j.close();
        j.field("lastDecision", isolation.decisions().after(0, 1).last());
        Optional<PoisonMessagePoint> poison = rt.poison();
        if (poison.isPresent()) {
            poison(j, poison.get(), nowNanos);
        } else {
            j.field("poison", null);
        }
        Optional<SlowClientPoint> slow = rt.slowClient();
        if (slow.isPresent()) {
            slowClient(j, slow.get(), nowNanos);
        } else {
            j.field("slowClient", null);
        }
        if (rt.crosstalkConfig().isPresent()) {
            crosstalk(j, isolation.connectionShares());
        } else {
            j.field("crosstalk", null);
        }
        return j.close().toString();
    }

    private static void resources(Json j, LocalResourceSnapshot s) {
        if (s == null) {
            j.field("resources", null);
            return;
        }
        j.name("resources").open().field("processCpuCores", s.processCpuCores())
                .field("processCpuPercent", 100 * s.processCpuFraction())
                .field("heapUsedBytes", s.heapUsedBytes()).field("heapMaxBytes", s.heapMaxBytes())
                .field("heapPercent", 100 * s.heapPressure()).field("gcPerSecond", s.gcPerSecond())
                .field("gcTimePercent", 100 * s.gcTimeFraction()).field("liveThreads", s.liveThreads())
                .field("handOffQueueLength", s.handOffQueueLength()).close();
    }

    private void poison(Json j, PoisonStatus p, long nowNanos) {
        j.name("poison").open();
        j.field("episodes", p.episodes());
        Optional<EpisodeReport> open = p.openEpisode();
        j.field("inEpisode", open.isPresent());
        // watching: an episode that has named no suspect (not an alarm); filtering: a signature is filtered
        boolean watching = p.watching();
        boolean filtering = !p.filtered().isEmpty();
        j.field("watching", watching);
        j.field("suspectsNamed", p.suspectsNamed());
        j.field("state", filtering ? "filtering" : watching ? "watching" : "quiet");
        edge(j, "throughputBaseline", isolation.throughputBaseline().orElse(null));
        edge(j, "throughputCurrent", isolation.lastEdgeSample().orElse(null));
        if (open.isPresent()) {
            j.name("openEpisode");
            episode(j, open.get(), nowNanos);
        } else {
            j.field("openEpisode", null);
        }
        j.name("filters").array();
        for (FilterStatus f : p.filterStatuses(nowNanos)) {
            j.open().field("signature", f.signature()).field("phase", f.phase())
                    .field("phaseAgeNanos", f.phaseAgeNanos()).field("coolDownNanos", f.coolDownNanos())
                    .field("coolDownLeftNanos", f.coolDownLeftNanos()).field("timesFiltered", f.timesFiltered())
                    .field("healthyProbes", f.healthyProbes()).field("probeInFlight", f.probeInFlight()).close();
        }
        j.end();
        List<EpisodeReport> reports = p.episodeReports();
        j.name("episodeReports").array();
        for (int i = reports.size() - 1; i >= Math.max(0, reports.size() - EPISODES_SHOWN); i--) {
            episode(j, reports.get(i), nowNanos);
        }
        j.end().close();
    }

    private static void edge(Json j, String name, EdgeSample s) {
        if (s == null) {
            j.field(name, null);
            return;
        }
        j.name(name).open().field("throughputPerSecond", s.throughputPerSecond()).field("cpuCores", s.cpuCores())
                .field("gcTimePercent", 100 * s.gcTimeFraction())
                .field("allocatedBytesPerSecond", s.allocatedBytesPerSecond())
                .field("othersCores", Double.isNaN(s.othersCores()) ? null : (Object) s.othersCores()).close();
    }

    private static void episode(Json j, EpisodeReport r, long nowNanos) {
        boolean open = r.fallingNanos() < 0;
        j.open().field("episode", r.episode()).field("open", open)
                .field("ageNanos", nowNanos - r.risingNanos())
                .field("lastedNanos", open ? nowNanos - r.risingNanos() : r.fallingNanos() - r.risingNanos())
                .strings("inFlightAtRise", r.inFlightAtRise()).strings("suspects", r.suspects())
                .strings("narrowed", r.narrowed()).field("namedByCost", r.namedByCost())
                .strings("filtered", r.filtered());
        evidence(j, r.evidence());
        j.close();
    }

    private static void evidence(Json j, Evidence e) {
        j.name("evidence").open();
        e.values().forEach(j::field);
        j.close();
    }

    private static void slowClient(Json j, SlowClientStatus p, long nowNanos) {
        j.name("slowClient").open();
        j.name("pairs").array();
        for (CausalPairStatus s : p.pairStatuses()) {
            PairSnapshot w = s.window();
            j.open().field("name", s.pair().name()).field("incoming", s.pair().incoming().glob())
                    .field("outgoing", s.pair().outgoing().glob()).field("fanOut", s.pair().fanOut())
                    .field("incomingPerSecond", w.incomingPerSecond()).field("outgoingPerSecond", w.outgoingPerSecond())
                    .field("queueGrowthPerSecond", w.queueGrowthPerSecond())
                    .field("estimatedQueueLength", w.estimatedQueueLength())
                    .field("measuredQueueLength", w.measuredQueueLength().isPresent()
                            ? (Object) w.measuredQueueLength().getAsLong() : null)
                    .field("host", s.host()).field("triggered", s.triggered());
            evidence(j, s.evidence());
            j.close();
        }
        j.end();
        j.name("hosts").array();
        for (RemoteHostStatus h : p.hostStatuses()) {
            j.open().field("host", h.host()).field("rttNanos", h.rttNanos()).field("triggered", h.triggered());
            if (h.load() == null) {
                j.field("remote", null);
            } else {
                j.name("remote").open().field("cpuPercent", 100 * h.load().cpu())
                        .field("heapPercent", 100 * h.load().heapPressure()).field("queueLength", h.load().queueLength())
                        .field("gcPerSecond", h.load().gcPerSecond()).field("overloaded", h.load().overloaded())
                        .field("reportAgeNanos", nowNanos - h.load().receivedAtNanos()).close();
            }
            j.close();
        }
        j.end().close();
    }

    private static void crosstalk(Json j, List<ConnectionShare> shares) {
        j.name("crosstalk").open().field("activeStreams", shares.stream().filter(ConnectionShare::active).count());
        j.name("connections").array();
        for (ConnectionShare c : shares) {
            j.open().field("connectionId", c.connectionId()).field("peer", c.peerAddress())
                    .field("weight", c.weight()).field("active", c.active())
                    .field("weightSharePercent", c.weightSharePercent()).field("readBudgetBytes", c.readBudgetBytes())
                    .field("receiveBufferBytes", c.receiveBufferBytes() < 0 ? null : (Object) c.receiveBufferBytes())
                    .field("bytesRead", c.bytesRead()).field("bytesPerSecond", c.bytesPerSecond())
                    .field("sharePercent", c.sharePercent()).close();
        }
        j.end().close();
    }

    /** @return the decision events numbered above {@code after}, newest {@code limit} */
    String decisions(long after, int limit) {
        RecentDecisions.Page page = isolation.decisions().after(after, limit);
        Json j = new Json().open().field("last", page.last()).field("missed", page.missed());
        j.name("events").array();
        for (RecentDecisions.Numbered n : page.events()) {
            DecisionEvent e = n.event();
            j.open().field("seq", n.seq()).field("atMillis", e.wallTimeMillis())
                    .field("point", e.point().metricName()).field("action", e.decision().action().metricName())
                    .field("module", e.module()).field("stream", e.stream().toString());
            if (e.decision() instanceof Decision.Reject r) {
                j.field("exception", r.kind().name()).field("minor", MinorCodes.name(r.minor()))
                        .field("reason", r.reason());
            } else if (e.decision() instanceof Decision.Forward f) {
                j.field("replica", f.replicaName());
            } else if (e.decision() instanceof Decision.Throttle t) {
                j.field("waitNanos", t.waitNanos());
            } else if (e.decision() instanceof Decision.Defer d) {
                j.field("maxWaitNanos", d.maxWaitNanos());
            }
            evidence(j, e.evidence());
            j.close();
        }
        return j.end().close().toString();
    }

    /** A JSON writer for the shapes above: objects, arrays, strings, numbers, booleans and null. */
    static final class Json {
        private final StringBuilder sb = new StringBuilder(4096);
        private boolean first = true;

        Json open() {
            comma();
            sb.append('{');
            first = true;
            return this;
        }

        Json close() {
            sb.append('}');
            first = false;
            return this;
        }

        Json array() {
            comma();
            sb.append('[');
            first = true;
            return this;
        }

        Json end() {
            sb.append(']');
            first = false;
            return this;
        }

        /** Writes {@code "name":} so that the next value belongs to it. */
        Json name(String name) {
            comma();
            string(name);
            sb.append(':');
            first = true; // the value follows without a comma
            return this;
        }

        Json field(String name, Object value) {
            name(name);
            value(value);
            return this;
        }

        Json strings(String name, Collection<String> values) {
            name(name).array();
            for (String v : new java.util.TreeSet<>(values)) {
                value(v);
            }
            return end();
        }

        private void value(Object v) {
            comma();
            if (v == null) {
                sb.append("null");
            } else if (v instanceof Boolean b) {
                sb.append(b);
            } else if (v instanceof Double || v instanceof Float) {
                double d = ((Number) v).doubleValue();
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    sb.append("null");
                } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                    sb.append((long) d);
                } else {
                    sb.append(d);
                }
            } else if (v instanceof Number n) {
                sb.append(n.longValue());
            } else {
                string(v.toString());
            }
            first = false;
        }

        private void comma() {
            if (!first) {
                sb.append(',');
            }
        }

        private void string(String s) {
            sb.append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                switch (c) {
                    case '"' -> sb.append("\\\"");
                    case '\\' -> sb.append("\\\\");
                    case '\n' -> sb.append("\\n");
                    case '\r' -> sb.append("\\r");
                    case '\t' -> sb.append("\\t");
                    default -> {
                        if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x2028 || c == 0x2029) {
                            sb.append(String.format("\\u%04x", (int) c));
                        } else {
                            sb.append(c);
                        }
                    }
                }
            }
            sb.append('"');
        }

        @Override
        public String toString() {
            return sb.toString();
        }
    }
}
