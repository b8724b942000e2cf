package org.irmi.orb;

import org.irmi.orb.internal.RmiSetup;

/**
 * The singleton ORB of I-RMI (set as {@code org.omg.CORBA.ORBSingletonClass}). It is JacORB's
 * singleton; loading it also installs the RMI-IIOP system property defaults, so code that only
 * touches {@code ORB.init()} without arguments gets a working RMI-IIOP set-up too.
 */
public class IrmiORBSingleton extends org.jacorb.orb.ORBSingleton {

    static {
        RmiSetup.installSystemProperties();
    }

    /** Created by {@code ORB.init()}; applications do not call this. */
    public IrmiORBSingleton() {
        super();
    }
}
