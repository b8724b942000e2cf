package org.irmi.bench.experiments.internal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Which ORB a child JVM runs: plain JacORB (the baseline, with a fixed-size POA pool so the
 * comparison is fair) or the I-RMI drop-in ORB with an SLA file.
 */
public enum OrbKind {
    PLAIN("plain JacORB"),
    IRMI("I-RMI");

    /** The drop-in ORB's class, fixed by the team. */
    public static final String IRMI_ORB_CLASS = "org.irmi.orb.IrmiORB";
    /** System property naming the SLA YAML file that the I-RMI ORB loads. */
    public static final String SLA_PROPERTY = "irmi.sla";

    private final String label;

    OrbKind(String label) {
        this.label = label;
    }

    /** @return the name used in tables and legends */
    public String label() {
        return label;
    }

    /**
     * @return the ORBs to run, in order: both by default; {@code -Dirmi.orbs=plain} (or {@code irmi})
     *     runs one, for developing an experiment
     */
    public static List<OrbKind> selected() {
        String chosen = System.getProperty("irmi.orbs", "plain,irmi");
        List<OrbKind> kinds = new ArrayList<>();
        for (OrbKind kind : values()) {
            if (chosen.contains(kind.name().toLowerCase())) {
                kinds.add(kind);
            }
        }
        return kinds;
    }

    /** @return whether the I-RMI ORB is on this JVM's class path (false while it is being built) */
    public static boolean irmiAvailable() {
        try {
            Class.forName(IRMI_ORB_CLASS, false, OrbKind.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /**
     * JVM options selecting this ORB.
     *
     * @param sla the SLA file for I-RMI, or null to run I-RMI with its defaults (ignored for plain)
     */
    public List<String> jvmOptions(Path sla) {
        List<String> options = new ArrayList<>();
        // Same POA pool on both ORBs: min = max, or plain JacORB churns threads (design.md).
        options.add("-Djacorb.poa.thread_pool_min=8");
        options.add("-Djacorb.poa.thread_pool_max=8");
        options.add("-Djacorb.poa.queue_max=1000");
        options.add("-Djacorb.log.default.verbosity=1");
        options.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        options.add("-Dorg.omg.CORBA.SkipGmbalInit=true");
        options.add("-DOAIAddr=127.0.0.1"); // loopback IORs: the experiments never leave this machine
        // A lost reply ends the call with TIMEOUT instead of hanging a client for the rest of the run.
        options.add("-Djacorb.connection.client.pending_reply_timeout=60000");
        if (this == PLAIN) {
            options.add("-Dorg.omg.CORBA.ORBClass=org.jacorb.orb.ORB");
            options.add("-Dorg.omg.CORBA.ORBSingletonClass=org.jacorb.orb.ORBSingleton");
        } else {
            options.add("-Dorg.omg.CORBA.ORBClass=" + IRMI_ORB_CLASS);
            options.add("-Dorg.omg.CORBA.ORBSingletonClass=org.irmi.orb.IrmiORBSingleton");
            if (sla != null) {
                options.add("-D" + SLA_PROPERTY + "=" + sla.toAbsolutePath());
                options.addAll(DashboardOption.jvmOptions(sla));
            }
        }
        return options;
    }
}
