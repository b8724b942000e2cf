package org.irmi.orb;

import java.util.Properties;

import org.omg.CORBA.ORB;

/**
 * A JacORB application with I-RMI switched on, for {@link LoggingBindingsTest}: starts JacORB's ORB
 * with I-RMI's ORB initializer, serves one object on the selector transport, shuts down, and prints
 * {@code PROBE DONE}. JacORB logs its shutdown and I-RMI its transports at INFO, through whatever
 * slf4j binding the class path has.
 */
public final class LoggingProbeMain {

    private LoggingProbeMain() {
    }

    public static void main(String[] args) {
        Properties p = new Properties();
        p.setProperty("org.omg.CORBA.ORBClass", "org.jacorb.orb.ORB");
        p.setProperty("org.omg.CORBA.ORBSingletonClass", "org.jacorb.orb.ORBSingleton");
        p.setProperty("OAIAddr", "127.0.0.1");
        p.setProperty("org.omg.PortableInterceptor.ORBInitializerClass.irmi", "org.irmi.orb.internal.IrmiOrbInitializer");
        ORB orb = ORB.init(args, p);
        Orbs.serve(orb, new EchoServant());
        orb.shutdown(true);
        orb.destroy();
        System.out.println("PROBE DONE");
    }
}
