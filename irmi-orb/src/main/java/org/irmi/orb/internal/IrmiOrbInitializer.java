package org.irmi.orb.internal;

import org.irmi.orb.IrmiORB;
import org.jacorb.orb.portableInterceptor.ORBInitInfoImpl;
import org.omg.CORBA.LocalObject;
import org.omg.PortableInterceptor.ORBInitInfo;
import org.omg.PortableInterceptor.ORBInitInfoPackage.DuplicateName;
import org.omg.PortableInterceptor.ORBInitializer;

/** Installs the interceptors behind the I-RMI hooks; registered by {@link IrmiORB#configure}. */
public final class IrmiOrbInitializer extends LocalObject implements ORBInitializer {

    @Override
    public void pre_init(ORBInitInfo info) {
        // nothing before the ORB is ready
    }

    @Override
    public void post_init(ORBInitInfo info) {
        if (!(info instanceof ORBInitInfoImpl impl)) {
            return;
        }
        IrmiORB orb = OrbRegistry.lookup(impl.getORB());
        if (orb == null) {
            return;
        }
        try {
            info.add_server_request_interceptor(new ServerHookInterceptor(orb.hooks()));
            info.add_client_request_interceptor(new ClientHookInterceptor(orb));
        } catch (DuplicateName e) {
            throw new org.omg.CORBA.INITIALIZE("I-RMI interceptors registered twice: " + e.name);
        }
    }
}
