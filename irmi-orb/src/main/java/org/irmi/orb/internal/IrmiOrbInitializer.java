package org.irmi.orb.internal;

import java.util.Map;

import org.irmi.orb.IrmiORB;
import org.jacorb.config.JacORBConfiguration;
import org.jacorb.orb.portableInterceptor.ORBInitInfoImpl;
import org.omg.CORBA.LocalObject;
import org.omg.PortableInterceptor.ORBInitInfo;
import org.omg.PortableInterceptor.ORBInitInfoPackage.DuplicateName;
import org.omg.PortableInterceptor.ORBInitializer;

/**
 * I-RMI's ORB initializer. It installs the interceptors behind the I-RMI hooks, in both ways of
 * running I-RMI:
 * <ul>
 *   <li>with {@code org.omg.CORBA.ORBClass=org.irmi.orb.IrmiORB}, which registers it;</li>
 *   <li>inside JacORB's own {@code org.jacorb.orb.ORB}, registered by the application as
 *       {@code org.omg.PortableInterceptor.ORBInitializerClass.irmi=org.irmi.orb.internal.IrmiOrbInitializer}.
 *       Then it also creates the ORB's I-RMI API ({@link IrmiORB#attach}), applies I-RMI's
 *       {@link IrmiORB#DEFAULTS} to every key the configuration does not set (the POA reads them
 *       when it is created, after the initializers), and starts the ORB's
 *       {@link org.irmi.orb.OrbExtension}s ({@link IrmiORB#startAttachedExtensions}), such as the
 *       isolation points of {@code irmi.sla}.</li>
 * </ul>
 * In both, it first has I-RMI's selector transport take over IIOP in the ORB's own list of transports
 * and keeps every other transport listed ({@link TransportTakeover}).
 */
public final class IrmiOrbInitializer extends LocalObject implements ORBInitializer {

    @Override
    public void pre_init(ORBInitInfo info) {
        if (!(info instanceof ORBInitInfoImpl impl)) {
            return;
        }
        org.jacorb.orb.ORB jacorb = impl.getORB();
        TransportTakeover.apply(jacorb);
        if (OrbRegistry.lookup(jacorb) != null) {
            return; // IrmiORB started this JacORB ORB
        }
        if (jacorb.getConfiguration() instanceof JacORBConfiguration config) {
            for (Map.Entry<String, String> d : IrmiORB.DEFAULTS.entrySet()) {
                if (config.getAttribute(d.getKey(), null) == null) {
                    config.setAttribute(d.getKey(), d.getValue());
                }
            }
        }
        IrmiORB.attach(jacorb);
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
            info.add_server_request_interceptor(new ServerHookInterceptor(new ServerRequestHooks(orb.hooks())));
            info.add_client_request_interceptor(new ClientHookInterceptor(orb));
        } catch (DuplicateName e) {
            throw new org.omg.CORBA.INITIALIZE("I-RMI interceptors registered twice: " + e.name);
        }
        if (orb.attached()) {
            orb.startAttachedExtensions();
        }
    }
}
