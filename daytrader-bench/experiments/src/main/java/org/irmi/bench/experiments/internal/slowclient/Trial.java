package org.irmi.bench.experiments.internal.slowclient;

import org.irmi.bench.experiments.internal.Samples;

/**
 * Everything measured in one trial of the slow-client experiment on one ORB (warm-up, unloaded
 * phase, stressed phase), with the wall times that cut its phases, and the figures read from it.
 * The stressed figures are read from {@code settledFrom} (after the transient) to {@code end}.
 *
 * @param setup the primary's ORB and SLA
 * @param rep the repetition, from 1
 * @param primary the primary's STAT rows (columns {@code P_*})
 * @param client the client's STAT rows (columns {@code C_*})
 * @param secondary the secondary's STAT rows (wall, processed)
 * @param replica the replica secondary's STAT rows, empty when there is none
 * @param source the event source's STAT rows (columns {@code S_*})
 */
record Trial(Setup setup, int rep, Samples primary, Samples client, Samples secondary, Samples replica, Samples source,
             long origin,
             long unloadedFrom, long stressFrom, long settledFrom, long end, double loadBefore, double loadAfter) {

    // Primary STAT columns.
    static final int P_IN = 1;
    static final int P_OUT = 2;
    static final int P_FETCHES = 3;
    static final int P_QUEUED = 4;
    static final int P_GC = 5;
    static final int P_GC_MILLIS = 6;
    static final int P_HEAP_MB = 7;
    static final int P_FORWARD_ERRORS = 8;
    static final int P_ELIMINATED = 9;
    static final int P_WORKER_OOM = 10;
    // Client STAT columns.
    static final int C_CALLS = 1;
    static final int C_RTT_MICROS = 2;
    static final int C_ERRORS = 3;
    // Event source STAT columns.
    static final int S_SENT = 1;
    static final int S_FAILED = 2;

    /**
     * The most queued events, on average over the unloaded phase, for it to be a baseline: the paper's
     * unloaded queue was "under 3 units" on average; 5 leaves room for a short stall of this shared
     * machine (a stall that drains is a secondary that keeps up; one that does not lifts the mean).
     */
    static final double UNLOADED_MAX_MEAN_QUEUE = 5;

    /** @return "plain JacORB, trial 2" */
    String label() {
        return setup.label() + ", trial " + rep;
    }

    /** @return the primary's last row: the run's totals */
    long total(int column) {
        return primary.rows().get(primary.rows().size() - 1)[column];
    }

    /** @return pushes the source saw fail (events lost before they reached the primary's queue) */
    long eventsLost() {
        return source.isEmpty() ? 0 : source.rows().get(source.rows().size() - 1)[S_FAILED];
    }

    /** @return client calls that failed */
    long clientErrors() {
        return client.rows().get(client.rows().size() - 1)[C_ERRORS];
    }

    /** @return forwards the replica processed (rerouted by I-RMI) */
    long rerouted() {
        return replica.isEmpty() ? 0 : replica.rows().get(replica.rows().size() - 1)[1];
    }

    /** @return forwards the worker completed that reached neither the secondary nor a replica (short-circuited or failed) */
    long forwardsNotDelivered() {
        long processed = secondary.isEmpty() ? 0 : secondary.rows().get(secondary.rows().size() - 1)[1];
        return Math.max(0, total(P_OUT) - processed - rerouted());
    }

    /** @return events that were sent but will never be processed: pushes that failed and forwards not delivered */
    long eventsNeverProcessed() {
        return eventsLost() + forwardsNotDelivered();
    }

    double rttMillis(long from, long to) {
        long calls = client.delta(C_CALLS, from, to);
        return calls == 0 ? Double.NaN : client.delta(C_RTT_MICROS, from, to) / 1000.0 / calls;
    }

    double unloadedRttMillis() {
        return rttMillis(unloadedFrom, stressFrom);
    }

    double stressedRttMillis() {
        return rttMillis(settledFrom, end);
    }

    double gcPer100Calls(long from, long to) {
        long calls = primary.delta(P_FETCHES, from, to);
        return calls == 0 ? Double.NaN : 100.0 * primary.delta(P_GC, from, to) / calls;
    }

    double unloadedGcPer100Calls() {
        return gcPer100Calls(unloadedFrom, stressFrom);
    }

    double stressedGcPer100Calls() {
        return gcPer100Calls(settledFrom, end);
    }

    double gcPercent(long from, long to) {
        long span = primary.span(from, to);
        return span == 0 ? Double.NaN : 100.0 * primary.delta(P_GC_MILLIS, from, to) / span;
    }

    double callsPerSecond(long from, long to) {
        long span = client.span(from, to);
        return span == 0 ? Double.NaN : client.delta(C_CALLS, from, to) * 1000.0 / span;
    }

    double eventsPerSecond(long from, long to) {
        long span = primary.span(from, to);
        return span == 0 ? Double.NaN : primary.delta(P_IN, from, to) * 1000.0 / span;
    }

    double maxQueued(long from, long to) {
        long max = 0;
        for (long[] row : primary.rows()) {
            if (row[0] >= from && row[0] <= to) {
                max = Math.max(max, row[P_QUEUED]);
            }
        }
        return max;
    }

    double meanQueued(long from, long to) {
        long sum = 0;
        int n = 0;
        for (long[] row : primary.rows()) {
            if (row[0] >= from && row[0] <= to) {
                sum += row[P_QUEUED];
                n++;
            }
        }
        return n == 0 ? Double.NaN : (double) sum / n;
    }

    /** @return stressed over unloaded RTT, NaN for an invalid trial */
    double rttRatio() {
        return invalidReason() != null ? Double.NaN : stressedRttMillis() / unloadedRttMillis();
    }

    /** @return stressed over unloaded GCs per 100 calls, NaN for an invalid trial */
    double gcRatio() {
        return invalidReason() != null ? Double.NaN : stressedGcPer100Calls() / unloadedGcPer100Calls();
    }

    /** @return the share of the stressed phase the primary spent collecting (needs no unloaded baseline) */
    double stressedGcPercent() {
        return gcPercent(settledFrom, end);
    }

    /**
     * @return why this trial has no unloaded baseline to compare with, or null. Only the unloaded
     *     phase is checked: in the stressed phase a primary that takes fewer events is the harm itself.
     */
    String invalidReason() {
        double unloaded = eventsPerSecond(unloadedFrom, stressFrom);
        double nominal = 1000.0 / SlowClientExperiment.EVENT_PERIOD_MILLIS;
        if (!(unloaded >= nominal / 2)) {
            return String.format("the primary received %.0f events/s unloaded instead of %.0f: the event source stalled"
                    + " (see logs/), so there was no unloaded baseline", unloaded, nominal);
        }
        if (meanQueued(unloadedFrom, stressFrom) > UNLOADED_MAX_MEAN_QUEUE) {
            return String.format("the queue held %.1f events on average (at most %.0f) before the stress began: the"
                    + " secondary could not keep up even unloaded (the machine was busy: load average %.1f), so there"
                    + " was no unloaded baseline", meanQueued(unloadedFrom, stressFrom), maxQueued(unloadedFrom, stressFrom),
                    loadBefore);
        }
        return null;
    }
}
