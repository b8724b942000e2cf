package org.irmi.bench.experiments.internal.slowclient;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import org.irmi.bench.experiments.Bound;
import org.irmi.bench.experiments.Chart;
import org.irmi.bench.experiments.ExperimentResult;
import org.irmi.bench.experiments.Goal;
import org.irmi.bench.experiments.Harm;
import org.irmi.bench.experiments.RunContext;
import org.irmi.bench.experiments.Spread;
import org.irmi.bench.experiments.Table;

/**
 * The slow-client experiment's report: the paper's Tables 1-2 and Figures 4-5 for the last trial
 * on each ORB, every trial's figures, what the primary did with the events, and the two goals
 * built from the per-trial ratios (median, min to max), each with the harm plain JacORB must show.
 */
final class SlowClientReport {

    private final List<Trial> trials;
    private final Map<Setup, Trial> last = new LinkedHashMap<>();

    SlowClientReport(List<Trial> trials) {
        this.trials = trials;
        trials.forEach(t -> last.put(t.setup(), t));
    }

    void writeTo(ExperimentResult result) {
        Table table1 = Table.of("Table 1. Average round trip time for client calls (ms/call), last trial",
                "Scenario", "Primary's ORB", "Avg RTT (ms)", "Client calls/s", "Events in/s", "Max queued events", "Paper");
        Table table2 = Table.of("Table 2. Primary server garbage collections per 100 client calls, last trial",
                "Scenario", "Primary's ORB", "GCs per 100 calls", "GC time (% of phase)", "Paper");
        for (Trial t : last.values()) {
            boolean isPlain = t.setup() == Setup.PLAIN;
            String paperStressedRtt = isPlain ? "80" : t.setup() == Setup.IRMI ? "35" : "-";
            table1.row("Unloaded secondary", t.label(), fmt(t.unloadedRttMillis()),
                    fmt(t.callsPerSecond(t.unloadedFrom(), t.stressFrom())),
                    fmt(t.eventsPerSecond(t.unloadedFrom(), t.stressFrom())),
                    fmt(t.maxQueued(t.unloadedFrom(), t.stressFrom())), isPlain ? "35" : "-");
            table1.row("Secondary stress loaded", t.label(), fmt(t.stressedRttMillis()),
                    fmt(t.callsPerSecond(t.settledFrom(), t.end())), fmt(t.eventsPerSecond(t.settledFrom(), t.end())),
                    fmt(t.maxQueued(t.settledFrom(), t.end())), paperStressedRtt);
            table2.row("Unloaded secondary", t.label(), fmt(t.unloadedGcPer100Calls()),
                    fmt(t.gcPercent(t.unloadedFrom(), t.stressFrom())), isPlain ? "6" : "-");
            table2.row("Secondary stress loaded", t.label(), fmt(t.stressedGcPer100Calls()),
                    fmt(t.gcPercent(t.settledFrom(), t.end())), isPlain ? "102" : "-");
        }
        result.table(table1).table(table2);

        Table perTrial = Table.of("Every trial (in the order run): stressed / unloaded", "Trial", "RTT unloaded (ms)",
                "RTT stressed (ms)", "RTT ratio", "GCs/100 calls unloaded", "GCs/100 calls stressed", "GC ratio",
                "GC time stressed (%)", "Load average before/after");
        Table events = Table.of("What happened to the events (whole trial)", "Trial", "Events sent", "Events lost (push failed)",
                "Events queued", "Forwards delivered (secondary)", "Forwards eliminated (short-circuited)", "Forwards failed",
                "Forwards rerouted (to the replica)", "Worker out of memory", "Client calls failed");
        for (Trial t : trials) {
            perTrial.row(t.label(), fmt(t.unloadedRttMillis()), fmt(t.stressedRttMillis()), ratio(t.rttRatio()),
                    fmt(t.unloadedGcPer100Calls()), fmt(t.stressedGcPer100Calls()), ratio(t.gcRatio()),
                    fmt(t.gcPercent(t.settledFrom(), t.end())),
                    String.format("%.1f / %.1f", t.loadBefore(), t.loadAfter()));
            long sent = t.source().isEmpty() ? 0 : t.source().rows().get(t.source().rows().size() - 1)[Trial.S_SENT];
            long notDelivered = t.forwardsNotDelivered();
            events.row(t.label(), String.valueOf(sent + t.eventsLost()), String.valueOf(t.eventsLost()),
                    String.valueOf(t.total(Trial.P_IN)), String.valueOf(t.total(Trial.P_OUT) - notDelivered - t.rerouted()),
                    String.valueOf(t.total(Trial.P_ELIMINATED)), String.valueOf(t.total(Trial.P_FORWARD_ERRORS)),
                    String.valueOf(t.rerouted()),
                    String.valueOf(t.total(Trial.P_WORKER_OOM)), String.valueOf(t.clientErrors()));
            if (t.invalidReason() != null) {
                result.note("INVALID TRIAL " + t.label() + ": " + t.invalidReason() + ".");
            }
        }
        result.table(perTrial).table(events);
        long settleSeconds = trials.isEmpty() ? 0 : (trials.get(0).settledFrom() - trials.get(0).stressFrom()) / 1000;
        result.note("Stressed figures are averaged from " + settleSeconds + " s after the stress starts to the end of the"
                + " phase (the first quarter is the transient, shown in the charts), for both ORBs alike. Tables 1-2 and the"
                + " charts show the last trial on each ORB; the goals are the median (min to max) over all trials.");
        result.note("Events lost: pushes that failed at the primary (e.g. OutOfMemoryError while unmarshalling an event"
                + " into a full heap); the source does not retry them. Events queued: pushes the primary's application took.");
        charts(result);
        goals(result);
    }

    private void charts(ExperimentResult result) {
        Chart fig4 = Chart.of("slow-client-fig4-gc.png", "Figure 4. Garbage collections per second at the primary server"
                + " (last trial)", "time (s)", "GCs/s", false);
        Chart rtt = Chart.of("slow-client-rtt.png", "Client round trip time over time (1 s windows, last trial)",
                "time (s)", "avg RTT (ms)", false);
        for (Trial t : last.values()) {
            double[][] gc = t.primary().windowedRate(Trial.P_GC, t.origin(), 1000);
            fig4.line(t.setup().label(), gc[0], gc[1]);
            double[][] r = t.client().windowedRatio(Trial.C_RTT_MICROS, Trial.C_CALLS, t.origin(), 1000, 0.001);
            rtt.line(t.setup().label(), r[0], r[1]);
            Chart fig5 = Chart.of("slow-client-fig5-rates-" + t.setup().key() + ".png",
                    "Figure 5. Call rates measured at the primary server (" + t.label() + ", 2 s window; stress at "
                            + (t.stressFrom() - t.origin()) / 1000 + " s)", "time (s)", "calls/s", false);
            double[][] in = t.primary().windowedRate(Trial.P_IN, t.origin(), 2000);
            double[][] out = t.primary().windowedRate(Trial.P_OUT, t.origin(), 2000);
            fig5.line("incoming (push)", in[0], in[1]).line("outgoing (forward)", out[0], out[1])
                    .marker("secondary stressed", (t.stressFrom() - t.origin()) / 1000.0);
            result.chart(fig5);
        }
        result.chart(fig4).chart(rtt);
    }

    private void goals(ExperimentResult result) {
        Spread plainRtt = spread(Setup.PLAIN, Trial::rttRatio);
        Spread plainGc = spread(Setup.PLAIN, Trial::gcRatio);
        Spread irmiRtt = last.containsKey(Setup.IRMI) ? spread(Setup.IRMI, Trial::rttRatio) : null;
        Spread irmiGc = last.containsKey(Setup.IRMI) ? spread(Setup.IRMI, Trial::gcRatio) : null;
        result.goal(new Goal("slow-client", "stressed-rtt", "stressed RTT / unloaded RTT on I-RMI", "%.2fx", plainRtt,
                irmiRtt, Bound.atMost(1.1), new Harm("stressed RTT / unloaded RTT on plain JacORB", plainRtt,
                        Bound.atLeast(2))));
        result.goal(new Goal("slow-client", "stressed-gc", "GCs per 100 calls stressed / unloaded on I-RMI", "%.2fx",
                plainGc, irmiGc, Bound.atMost(1.5), new Harm("GCs per 100 calls stressed / unloaded on plain JacORB",
                        plainGc, Bound.atLeast(5))));
        if (last.containsKey(Setup.IRMI_REROUTE)) {
            Spread plainLost = spread(Setup.PLAIN, t -> t.eventsNeverProcessed());
            result.goal(new Goal("slow-client", "reroute-no-loss", "events never processed (push failed, forward"
                    + " eliminated or failed) with I-RMI rerouting to a replica", "%.0f", plainLost,
                    spread(Setup.IRMI_REROUTE, t -> t.eventsNeverProcessed()), Bound.atMost(0),
                    new Harm("events never processed on plain JacORB", plainLost, Bound.atLeast(1))));
            Spread rerouteRtt = spread(Setup.IRMI_REROUTE, Trial::rttRatio);
            result.note("I-RMI reroute: stressed RTT / unloaded RTT " + rerouteRtt.format("%.2fx") + ", GCs per 100 calls"
                    + " stressed / unloaded " + spread(Setup.IRMI_REROUTE, Trial::gcRatio).format("%.2fx") + " (no goal: its"
                    + " replica shares the primary's CPU 0, which the other setups leave to the primary, client and source).");
        }
    }

    private Spread spread(Setup setup, ToDoubleFunction<Trial> figure) {
        return Spread.of(trials.stream().filter(t -> t.setup() == setup).map(t -> figure.applyAsDouble(t)).toList());
    }

    /** Writes one trial's raw samples: primary, client, event source and phase boundaries. */
    static void writeCsv(RunContext context, String tag, Trial t) {
        List<String> lines = new ArrayList<>();
        for (long[] row : t.primary().rows()) {
            StringBuilder line = new StringBuilder(String.format("%.3f", (row[0] - t.origin()) / 1000.0));
            for (int c = 1; c < row.length; c++) {
                line.append(',').append(row[c]);
            }
            lines.add(line.toString());
        }
        context.writeCsv(tag + "-primary.csv", "t_s,events_in,forwards_out,fetches,queued,gc_count,gc_millis,heap_used_mb,"
                + "forward_errors,forwards_eliminated,worker_oom", lines);
        lines = new ArrayList<>();
        for (long[] row : t.client().rows()) {
            lines.add(String.format("%.3f,%d,%d,%d", (row[0] - t.origin()) / 1000.0, row[1], row[2], row[3]));
        }
        context.writeCsv(tag + "-client.csv", "t_s,calls,rtt_micros_sum,errors", lines);
        lines = new ArrayList<>();
        for (long[] row : t.source().rows()) {
            lines.add(String.format("%.3f,%d,%d", (row[0] - t.origin()) / 1000.0, row[1], row[2]));
        }
        context.writeCsv(tag + "-source.csv", "t_s,events_sent,events_failed", lines);
        lines = new ArrayList<>();
        lines.add(String.format("unloaded_from_s,%.3f", (t.unloadedFrom() - t.origin()) / 1000.0));
        lines.add(String.format("stress_from_s,%.3f", (t.stressFrom() - t.origin()) / 1000.0));
        lines.add(String.format("settled_from_s,%.3f", (t.settledFrom() - t.origin()) / 1000.0));
        lines.add(String.format("end_s,%.3f", (t.end() - t.origin()) / 1000.0));
        context.writeCsv(tag + "-phases.csv", "phase,t_s", lines);
    }

    private static String ratio(double value) {
        return Double.isNaN(value) ? "n/a" : String.format("%.2fx", value);
    }

    static String fmt(double value) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        return value >= 100 ? String.format("%.0f", value) : String.format("%.1f", value);
    }
}
