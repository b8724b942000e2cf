package org.irmi.bench.experiments.internal.slowclient;

import org.irmi.bench.experiments.internal.OrbKind;

/**
 * What one slow-client trial runs: the primary's ORB, the SLA it loads and whether a replica of
 * the secondary is there to reroute to. The secondary, the client and the source are the same in
 * every setup.
 */
enum Setup {
    /** Plain JacORB on the primary: the baseline that must show the harm. */
    PLAIN(OrbKind.PLAIN, null, "plain JacORB", "plain"),
    /** I-RMI with the paper's call elimination (short-circuit). */
    IRMI(OrbKind.IRMI, "slow-client.yaml", "I-RMI", "irmi"),
    /** Beyond the paper: I-RMI rerouting forwards to a replica secondary found in the Naming Service. */
    IRMI_REROUTE(OrbKind.IRMI, "slow-client-reroute.yaml", "I-RMI reroute", "reroute");

    private final OrbKind orb;
    private final String sla;
    private final String label;
    private final String key;

    Setup(OrbKind orb, String sla, String label, String key) {
        this.orb = orb;
        this.sla = sla;
        this.label = label;
        this.key = key;
    }

    OrbKind orb() {
        return orb;
    }

    /** @return the SLA resource under {@code sla/}, or null for plain JacORB */
    String sla() {
        return sla;
    }

    /** @return the name in tables and legends */
    String label() {
        return label;
    }

    /** @return the prefix of this setup's figures and files, e.g. {@code irmi} */
    String key() {
        return key;
    }

    /** @return whether a replica secondary and a Naming Service run in this setup */
    boolean replica() {
        return this == IRMI_REROUTE;
    }
}
