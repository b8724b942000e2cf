package org.irmi.orb.rmi;

import javax.rmi.PortableRemoteObject;
import javax.rmi.CORBA.Tie;
import javax.rmi.CORBA.Util;

import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;
import org.omg.PortableServer.Servant;

/** Exports an RMI object the standard way (PortableRemoteObject + tie on the root POA). */
final class Rmi {

    private Rmi() {
    }

    static String export(ORB orb, java.rmi.Remote impl) throws Exception {
        PortableRemoteObject.exportObject(impl);
        Tie tie = Util.getTie(impl);
        POA root = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
        root.the_POAManager().activate();
        return orb.object_to_string(root.servant_to_reference((Servant) tie));
    }

    /** Shuts down and destroys the ORBs that were started (test teardown). */
    static void destroy(ORB... orbs) {
        for (ORB o : orbs) {
            if (o != null) {
                o.shutdown(true);
                o.destroy();
            }
        }
    }

    static RemoteEcho lookup(ORB orb, String ior) {
        return (RemoteEcho) PortableRemoteObject.narrow(orb.string_to_object(ior), RemoteEcho.class);
    }
}
