package org.irmi.bench.daytrader;

import java.util.Locale;

/**
 * Which ORB runs RMI-IIOP: the I-RMI drop-in ORB or stock JacORB 3.9. Selected by setting
 * {@code org.omg.CORBA.ORBClass} / {@code ORBSingletonClass}; nothing else changes, which is what
 * makes the A/B comparison fair.
 */
public enum OrbChoice {
    IRMI("org.irmi.orb.IrmiORB", "org.irmi.orb.IrmiORBSingleton"),
    JACORB("org.jacorb.orb.ORB", "org.jacorb.orb.ORBSingleton");

    private final String orbClass;
    private final String singletonClass;

    OrbChoice(String orbClass, String singletonClass) {
        this.orbClass = orbClass;
        this.singletonClass = singletonClass;
    }

    public String orbClass() {
        return orbClass;
    }

    public String singletonClass() {
        return singletonClass;
    }

    /** The switch's spelling: {@code irmi} or {@code jacorb}. */
    public String flag() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** True when this ORB's classes are on the class path. */
    public boolean isAvailable() {
        try {
            Class.forName(orbClass, false, OrbChoice.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** Parses {@code irmi} or {@code jacorb}; anything else is an error that names the choices. */
    public static OrbChoice parse(String flag) {
        for (OrbChoice c : values()) {
            if (c.flag().equalsIgnoreCase(flag)) {
                return c;
            }
        }
        throw new IllegalArgumentException("--orb must be irmi or jacorb, was '" + flag + "'");
    }
}
