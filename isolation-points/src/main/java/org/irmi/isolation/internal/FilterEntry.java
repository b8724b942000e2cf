package org.irmi.isolation.internal;

import org.irmi.isolation.Evidence;
import org.irmi.isolation.FilterStatus;
import org.irmi.sla.PoisonConfig;

/**
 * The healing state machine of one filtered signature. Pure: time arrives as data.
 *
 * <pre>
 *   FILTERED  --(now - since &gt;= coolDown)--------------------------&gt; PROBATION
 *   PROBATION --(no probe in flight and now - lastProbe &gt;= interval)--&gt; admit one probe
 *   PROBATION --(a probe healthy and now - probationStart &gt;= admitAfter)--&gt; READMITTED
 *   PROBATION --(probe unhealthy)--&gt; FILTERED, coolDown = min(2 * coolDown, maxCoolDown)
 * </pre>
 * A trickle: at most one probe in flight, at most one per probe interval (1 / probation rate).
 * Every probe since probation began must have been healthy: one unhealthy probe refilters.
 *
 * <p>THREAD SAFETY: callers synchronize on the entry (the reader thread admits, a dispatch
 * thread reports the probe's outcome).
 */
public final class FilterEntry {
    /** Where the signature stands. */
    public enum Phase { FILTERED, PROBATION, READMITTED }

    /** What to do with one request of the signature. */
    public enum Admission { REFUSE, ADMIT_PROBE, ADMIT }

    private Phase phase = Phase.FILTERED;
    private long sinceNanos;
    private long coolDownNanos;
    private long lastProbeNanos;
    private boolean probeInFlight;
    private int healthyProbes;
    private long probationSinceNanos;
    private int timesFiltered = 1;

    public FilterEntry(long nowNanos, long coolDownNanos) {
        this.sinceNanos = nowNanos;
        this.coolDownNanos = coolDownNanos;
    }

    /** Decides one request's admission at {@code nowNanos}. */
    public Admission onRequest(long nowNanos, PoisonConfig c) {
        switch (phase) {
            case READMITTED:
                return Admission.ADMIT;
            case FILTERED:
                if (nowNanos - sinceNanos < coolDownNanos) {
                    return Admission.REFUSE;
                }
                phase = Phase.PROBATION;
                sinceNanos = nowNanos;
                probationSinceNanos = nowNanos;
                healthyProbes = 0;
                return admitProbe(nowNanos);
            default:
                if (probeInFlight || nowNanos - lastProbeNanos < probeIntervalNanos(c)) {
                    return Admission.REFUSE;
                }
                return admitProbe(nowNanos);
        }
    }

    private Admission admitProbe(long nowNanos) {
        probeInFlight = true;
        lastProbeNanos = nowNanos;
        return Admission.ADMIT_PROBE;
    }

    /** Reports the outcome of the probe in flight; returns the phase afterwards. */
    public Phase onProbeDone(long nowNanos, boolean healthy, PoisonConfig c) {
        if (!probeInFlight) {
            return phase;
        }
        probeInFlight = false;
        if (healthy) {
            healthyProbes++;
            if (nowNanos - probationSinceNanos >= c.probation().admitAfter().toNanos()) {
                phase = Phase.READMITTED;
                sinceNanos = nowNanos;
            }
        } else {
            phase = Phase.FILTERED;
            sinceNanos = nowNanos;
            healthyProbes = 0;
            timesFiltered++;
            coolDownNanos = Math.min(c.maxCoolDown().toNanos(), coolDownNanos * 2);
        }
        return phase;
    }

    public Phase phase() { return phase; }
    public long coolDownNanos() { return coolDownNanos; }
    public int healthyProbes() { return healthyProbes; }
    public int timesFiltered() { return timesFiltered; }
    public boolean probeInFlight() { return probeInFlight; }
    /** @return when the current phase began. */
    public long sinceNanos() { return sinceNanos; }

    /**
     * @return the evidence of refusing a request of the signature: {@code timesFiltered},
     *         {@code coolDownNanos}, {@code probation} (1 on probation, else 0) and {@code healthyProbes}
     */
    public Evidence refusalEvidence() {
        return Evidence.builder().put("timesFiltered", timesFiltered)
                .put("coolDownNanos", coolDownNanos)
                .put("probation", phase == Phase.PROBATION ? 1 : 0)
                .put("healthyProbes", healthyProbes).build();
    }

    /**
     * @param signature the signature this entry filters
     * @return where the signature stands at {@code nowNanos}, as an operator reads it; null once
     *         {@link Phase#READMITTED}
     */
    public FilterStatus status(String signature, long nowNanos) {
        if (phase == Phase.READMITTED) {
            return null;
        }
        long age = Math.max(0, nowNanos - sinceNanos);
        boolean filtered = phase == Phase.FILTERED;
        return new FilterStatus(signature, filtered ? "filtered" : "probation", age, coolDownNanos,
                filtered ? Math.max(0, coolDownNanos - age) : 0, timesFiltered, healthyProbes, probeInFlight);
    }

    /** @return the least time between two probation probes: one over the probation rate. */
    static long probeIntervalNanos(PoisonConfig c) {
        return Math.max(1, Math.round(1e9 / c.probation().ratePerSecond()));
    }
}
