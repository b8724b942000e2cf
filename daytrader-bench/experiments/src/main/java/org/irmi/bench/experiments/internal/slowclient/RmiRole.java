package org.irmi.bench.experiments.internal.slowclient;

import java.rmi.Remote;

import javax.rmi.PortableRemoteObject;
import javax.rmi.CORBA.Tie;
import javax.rmi.CORBA.Util;

import org.irmi.bench.daytrader.RmiIiop;
import org.irmi.bench.experiments.internal.corba.Roles;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;
import org.omg.PortableServer.Servant;

/**
 * RMI-IIOP for the slow-client roles, on whichever ORB the parent chose with {@code -D} options.
 * Exporting uses GlassFish ORB 5.0.0's reflective tie on JacORB's root POA, on both ORBs.
 * Narrowing differs, as it would for a user: on the I-RMI ORB {@code PortableRemoteObject.narrow}
 * returns I-RMI's dynamic stub (its client hook runs before marshalling); on plain JacORB,
 * whose references GlassFish's {@code narrow} cannot take, it is GlassFish's dynamic stub on the
 * JacORB delegate ({@link RmiIiop#narrow}, what DayTrader's web tier does).
 */
final class RmiRole {

    private static final String GLASSFISH_PRO = "com.sun.corba.ee.impl.javax.rmi.PortableRemoteObject";

    private RmiRole() {
    }

    /** Sets the {@code javax.rmi} delegates (each only when not set) and starts the ORB. */
    static ORB startOrb() {
        setDefault("javax.rmi.CORBA.StubClass", "com.sun.corba.ee.impl.javax.rmi.CORBA.StubDelegateImpl");
        setDefault("org.omg.CORBA.SkipGmbalInit", "true");
        if (!onIrmi()) {
            // On the I-RMI ORB its own delegates are installed when the ORB starts (RmiSetup): its
            // Util filters the classes named on the wire (irmi.rmi.value_filter).
            setDefault("javax.rmi.CORBA.UtilClass", "com.sun.corba.ee.impl.javax.rmi.CORBA.Util");
            setDefault("javax.rmi.CORBA.PortableRemoteObjectClass", GLASSFISH_PRO);
        }
        return Roles.startOrb(new String[0]);
    }

    /** Exports {@code impl} on the root POA, starts serving, prints {@code IOR <ior>} and returns it. */
    static String serve(ORB orb, Remote impl) throws Exception {
        POA root = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
        root.the_POAManager().activate();
        PortableRemoteObject.exportObject(impl);
        Tie tie = Util.getTie(impl);
        String ior = orb.object_to_string(root.servant_to_reference((Servant) tie));
        Thread runner = new Thread(orb::run, "orb-run");
        runner.setDaemon(true);
        runner.start();
        Roles.report("IOR " + ior);
        return ior;
    }

    /** @return a typed RMI-IIOP stub for the object at {@code ior} */
    static <T extends Remote> T connect(ORB orb, String ior, Class<T> type) {
        org.omg.CORBA.Object reference = orb.string_to_object(ior);
        if (onIrmi()) {
            return type.cast(PortableRemoteObject.narrow(reference, type));
        }
        return RmiIiop.narrow(reference, type);
    }

    private static boolean onIrmi() {
        return System.getProperty("org.omg.CORBA.ORBClass", "").startsWith("org.irmi.");
    }

    private static void setDefault(String name, String value) {
        if (System.getProperty(name) == null) {
            System.setProperty(name, value);
        }
    }
}
