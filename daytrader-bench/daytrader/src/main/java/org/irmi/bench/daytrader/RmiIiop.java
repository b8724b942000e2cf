package org.irmi.bench.daytrader;

import com.sun.corba.ee.spi.presentation.rmi.PresentationManager;
import com.sun.corba.ee.spi.presentation.rmi.StubAdapter;
import java.rmi.Remote;
import java.util.Properties;
import javax.rmi.CORBA.Tie;
import javax.rmi.CORBA.Util;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;
import org.omg.PortableServer.Servant;

/**
 * RMI-IIOP on Java 17 with JacORB (stock or I-RMI) and GlassFish ORB 5.0.0's {@code javax.rmi}.
 *
 * <p>Facts this class encodes: the JDK no longer has {@code javax.rmi}; GlassFish provides
 * {@code Util}, {@code PortableRemoteObject} and the stub delegate, selected by the three
 * {@code javax.rmi.CORBA.*Class} system properties, with {@code org.omg.CORBA.SkipGmbalInit=true}.
 * A server exports an object through GlassFish's reflective tie, which is a POA servant. A client of
 * a non-GlassFish ORB cannot use {@code PortableRemoteObject.narrow} (it looks for a static
 * {@code _X_Stub} class), so {@link #narrow} builds GlassFish's dynamic stub through the
 * presentation manager and gives it the JacORB reference's delegate.
 */
public final class RmiIiop {
    /** I-RMI's {@code javax.rmi} delegates (named, not referenced: this module runs without I-RMI too). */
    static final String IRMI_UTIL = "org.irmi.orb.internal.rmi.IrmiUtil";
    static final String IRMI_PORTABLE_REMOTE_OBJECT = "org.irmi.orb.internal.rmi.IrmiPortableRemoteObject";

    private RmiIiop() {
    }

    /**
     * Sets the JVM-wide system properties for RMI-IIOP on {@code orb}: the ORB classes (also the
     * singleton, which {@code javax.rmi} uses), the GlassFish delegates and Gmbal off. Call it first
     * thing in {@code main}, before any CORBA class is touched.
     *
     * @throws IllegalStateException when the chosen ORB is not on the class path
     */
    public static void installSystemProperties(OrbChoice orb) {
        if (!orb.isAvailable()) {
            throw new IllegalStateException("the " + orb.flag() + " ORB (" + orb.orbClass() + ") is not on the class path;"
                    + (orb == OrbChoice.IRMI ? " build it with `mvn -B -q -pl irmi-orb install -DskipTests`, or use --orb jacorb" : ""));
        }
        System.setProperty("org.omg.CORBA.ORBClass", orb.orbClass());
        System.setProperty("org.omg.CORBA.ORBSingletonClass", orb.singletonClass());
        System.setProperty("org.omg.CORBA.SkipGmbalInit", "true");
        if (orb == OrbChoice.IRMI) {
            // I-RMI's own delegates (the ORB sets the same at start-up when nothing is set): its Util
            // filters the classes a client names on the wire (irmi.rmi.value_filter, docs/orb.md).
            System.setProperty("javax.rmi.CORBA.UtilClass", IRMI_UTIL);
            System.setProperty("javax.rmi.CORBA.PortableRemoteObjectClass", IRMI_PORTABLE_REMOTE_OBJECT);
        } else {
            System.setProperty("javax.rmi.CORBA.UtilClass", "com.sun.corba.ee.impl.javax.rmi.CORBA.Util");
            System.setProperty("javax.rmi.CORBA.PortableRemoteObjectClass", "com.sun.corba.ee.impl.javax.rmi.PortableRemoteObject");
        }
        System.setProperty("javax.rmi.CORBA.StubClass", "com.sun.corba.ee.impl.javax.rmi.CORBA.StubDelegateImpl");
        System.setProperty("jacorb.log.default.verbosity", System.getProperty("jacorb.log.default.verbosity", "1"));
        // JacORB logs through SLF4J; its INFO lines (one per connection) drown the tiers' own output.
        if (System.getProperty("org.slf4j.simpleLogger.log.org.jacorb") == null) {
            System.setProperty("org.slf4j.simpleLogger.log.org.jacorb", "warn");
        }
    }

    /**
     * Initialises {@code orb} with loopback IORs and the benchmark's POA settings (min = max dispatch
     * threads, so JacORB's pool does not churn; a queue long enough for the saturating load), then
     * {@code extra} on top. {@link #installSystemProperties} must have run.
     */
    public static ORB initOrb(OrbChoice orb, int dispatchThreads, Properties extra) {
        Properties p = new Properties();
        p.setProperty("org.omg.CORBA.ORBClass", orb.orbClass());
        p.setProperty("org.omg.CORBA.ORBSingletonClass", orb.singletonClass());
        p.setProperty("OAIAddr", "127.0.0.1");
        p.setProperty("jacorb.poa.thread_pool_min", Integer.toString(dispatchThreads));
        p.setProperty("jacorb.poa.thread_pool_max", Integer.toString(dispatchThreads));
        p.setProperty("jacorb.poa.queue_max", "2000");
        p.setProperty("jacorb.log.default.verbosity", System.getProperty("jacorb.log.default.verbosity", "1"));
        for (String name : System.getProperties().stringPropertyNames()) {
            // -Djacorb.* and -Dirmi.* given to the JVM reach the ORB too, so experiments can tune it.
            if (name.startsWith("jacorb.") || name.startsWith("irmi.")) {
                p.setProperty(name, System.getProperty(name));
            }
        }
        p.putAll(extra);
        return ORB.init(new String[0], p);
    }

    /** Exports {@code impl} on the root POA of {@code orb} (activating it) and returns its stringified IOR. */
    public static String export(ORB orb, Remote impl) throws Exception {
        POA root = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
        root.the_POAManager().activate();
        javax.rmi.PortableRemoteObject.exportObject(impl);
        Tie tie = Util.getTie(impl);
        org.omg.CORBA.Object ref = root.servant_to_reference((Servant) tie);
        return orb.object_to_string(ref);
    }

    /** A typed RMI-IIOP stub for the object at {@code ior}. */
    public static <T extends Remote> T connect(ORB orb, String ior, Class<T> type) {
        return narrow(orb.string_to_object(ior), type);
    }

    /** A dynamic RMI-IIOP stub of {@code type} that calls through {@code ref}'s delegate. */
    public static <T extends Remote> T narrow(org.omg.CORBA.Object ref, Class<T> type) {
        PresentationManager pm = com.sun.corba.ee.spi.orb.ORB.getPresentationManager();
        org.omg.CORBA.Object stub = pm.getDynamicStubFactoryFactory()
                .createStubFactory(type.getName(), false, null, type, type.getClassLoader())
                .makeStub();
        StubAdapter.setDelegate(stub, StubAdapter.getDelegate(ref));
        return type.cast(stub);
    }
}
