package org.irmi.bench.experiments.internal.poison;

import org.irmi.bench.experiments.internal.OrbKind;

/**
 * What the backend runs in one trial: plain JacORB, or I-RMI with one of the two ways of naming the
 * poison request type. Both I-RMI variants use the same thresholds and neverFilter; only the
 * identification differs.
 */
public enum Variant {
    /** Plain JacORB: the baseline that must show the harm. */
    PLAIN("plain JacORB", OrbKind.PLAIN, null),
    /** I-RMI naming the offender from per-request CPU and allocation, in the first episode. */
    COST("I-RMI, cost attribution", OrbKind.IRMI, "poison.yaml"),
    /** I-RMI with the paper's method: S1 - S2 narrowed over episodes, attribution off. */
    SET_DIFFERENCE("I-RMI, set difference S1-S2", OrbKind.IRMI, "poison-setdiff.yaml");

    private final String label;
    private final OrbKind orb;
    private final String slaFile;

    Variant(String label, OrbKind orb, String slaFile) {
        this.label = label;
        this.orb = orb;
        this.slaFile = slaFile;
    }

    public String label() {
        return label;
    }

    public OrbKind orb() {
        return orb;
    }

    /** @return the SLA resource under {@code sla/}, or null for plain JacORB */
    public String slaFile() {
        return slaFile;
    }

    /** @return a short key for file names and results.json, e.g. {@code setdiff} */
    public String key() {
        return switch (this) {
            case PLAIN -> "plain";
            case COST -> "cost";
            case SET_DIFFERENCE -> "setdiff";
        };
    }
}
