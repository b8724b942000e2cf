package org.irmi.orb;

import java.util.Properties;

import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;
import org.omg.PortableServer.Servant;

/** Starts real ORBs on loopback for the tests: I-RMI ones and stock JacORB ones. */
final class Orbs {

    private Orbs() {
    }

    /** An I-RMI ORB; {@code extra} are alternating key/value pairs. */
    static ORB irmi(String... extra) {
        Properties p = new Properties();
        p.setProperty("org.omg.CORBA.ORBClass", "org.irmi.orb.IrmiORB");
        p.setProperty("OAIAddr", "127.0.0.1");
        put(p, extra);
        return ORB.init(new String[0], p);
    }

    /**
     * JacORB's own ORB class switched to I-RMI the other way docs/orb.md documents: I-RMI's ORB
     * initializer alone, which takes over IIOP in the ORB's own list of transports; JacORB's
     * defaults otherwise. {@code extra} may list the transports ({@code jacorb.transport.factories}).
     */
    static ORB jacorbWithIrmi(String... extra) {
        Properties p = new Properties();
        p.setProperty("org.omg.CORBA.ORBClass", "org.jacorb.orb.ORB");
        p.setProperty("OAIAddr", "127.0.0.1");
        p.setProperty("org.omg.PortableInterceptor.ORBInitializerClass.irmi", "org.irmi.orb.internal.IrmiOrbInitializer");
        put(p, extra);
        return ORB.init(new String[0], p);
    }

    /** A stock JacORB ORB (its server is thread per connection); no in-process loopback shortcut. */
    static ORB stock(String... extra) {
        Properties p = new Properties();
        p.setProperty("org.omg.CORBA.ORBClass", "org.jacorb.orb.ORB");
        p.setProperty("OAIAddr", "127.0.0.1");
        p.setProperty("jacorb.iiop.enable_loopback", "off");
        put(p, extra);
        return ORB.init(new String[0], p);
    }

    private static void put(Properties p, String... extra) {
        for (int i = 0; i + 1 < extra.length; i += 2) {
            p.setProperty(extra[i], extra[i + 1]);
        }
    }

    /** Activates {@code servant} on the root POA of {@code orb} and returns its stringified IOR. */
    static String serve(ORB orb, Servant servant) {
        try {
            POA root = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
            root.the_POAManager().activate();
            return orb.object_to_string(root.servant_to_reference(servant));
        } catch (Exception e) {
            throw new IllegalStateException("cannot serve " + servant, e);
        }
    }

    /** The I-RMI transport of a server ORB (after {@link #serve}). */
    static IrmiTransport transport(ORB orb) {
        return IrmiORB.of(orb).flatMap(IrmiORB::transport).orElseThrow();
    }

    static void destroy(ORB... orbs) {
        for (ORB o : orbs) {
            if (o != null) {
                try {
                    o.shutdown(true);
                    o.destroy();
                } catch (RuntimeException ignored) {
                    // best effort in test teardown
                }
            }
        }
    }
}
