package org.irmi.it;

import java.nio.file.Path;
import java.util.Properties;
import javax.rmi.CORBA.Tie;
import javax.rmi.CORBA.Util;
import javax.rmi.PortableRemoteObject;
import org.irmi.isolation.IsolationRuntime;
import org.irmi.orb.IrmiORB;
import org.irmi.orb.IrmiTransport;
import org.irmi.orb.isolation.OrbIsolation;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;
import org.omg.PortableServer.Servant;

/** Starts real ORBs on loopback and exports or looks up the RMI-IIOP service. */
final class Nodes {
    private Nodes() {
    }

    static ORB irmi(String... extra) {
        Properties p = new Properties();
        p.setProperty("org.omg.CORBA.ORBClass", "org.irmi.orb.IrmiORB");
        p.setProperty("org.omg.CORBA.ORBSingletonClass", "org.irmi.orb.IrmiORBSingleton");
        p.setProperty("OAIAddr", "127.0.0.1");
        p.setProperty("jacorb.iiop.enable_loopback", "off");
        // no test may hang on a lost reply: a call waits 20 s at most
        p.setProperty("jacorb.connection.client.pending_reply_timeout", "20000");
        for (int i = 0; i + 1 < extra.length; i += 2) {
            p.setProperty(extra[i], extra[i + 1]);
        }
        return ORB.init(new String[0], p);
    }

    /** @return the file of the test SLA {@code sla/<name>} (src/test/resources/sla), as {@code irmi.sla} takes it */
    static Path sla(String name) {
        try {
            java.net.URL url = Nodes.class.getResource("/sla/" + name);
            if (url == null) {
                throw new IllegalArgumentException("no test SLA sla/" + name + " on the class path");
            }
            return Path.of(url.toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * An I-RMI ORB whose isolation points the ORB builds itself from {@code sla} ({@code irmi.sla}).
     * Its meters are served on a free loopback port ({@code irmi.metrics.port=0}), so that
     * {@link OrbIsolation#meters()} holds this ORB's values.
     */
    static ORB irmi(Path sla, String... extra) {
        String[] all = java.util.Arrays.copyOf(extra, extra.length + 4);
        all[extra.length] = OrbIsolation.SLA_PROPERTY;
        all[extra.length + 1] = sla.toString();
        all[extra.length + 2] = OrbIsolation.METRICS_PORT_PROPERTY;
        all[extra.length + 3] = "0";
        return irmi(all);
    }

    /** @return the ORB's own isolation glue (the ORB was started with {@code irmi.sla}) */
    static OrbIsolation isolation(ORB orb) {
        return OrbIsolation.of(irmiOf(orb)).orElseThrow(() -> new IllegalStateException("ORB started without irmi.sla"));
    }

    /** @return the isolation runtime in force on {@code orb} (it changes when the SLA file changes) */
    static IsolationRuntime runtime(ORB orb) {
        return isolation(orb).runtime();
    }

    static String export(ORB orb, java.rmi.Remote impl) {
        try {
            PortableRemoteObject.exportObject(impl);
            Tie tie = Util.getTie(impl);
            POA root = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
            root.the_POAManager().activate();
            return orb.object_to_string(root.servant_to_reference((Servant) tie));
        } catch (Exception e) {
            throw new IllegalStateException("cannot export " + impl, e);
        }
    }

    static Trade lookup(ORB orb, String ior) {
        return (Trade) PortableRemoteObject.narrow(orb.string_to_object(ior), Trade.class);
    }

    static IrmiTransport transport(ORB orb) {
        return IrmiORB.of(orb).flatMap(IrmiORB::transport).orElseThrow();
    }

    static IrmiORB irmiOf(ORB orb) {
        return IrmiORB.of(orb).orElseThrow();
    }

    static void destroy(ORB... orbs) {
        for (ORB o : orbs) {
            if (o != null) {
                try {
                    o.shutdown(true);
                    o.destroy();
                } catch (RuntimeException ignored) {
                    // teardown is best effort
                }
            }
        }
    }
}
