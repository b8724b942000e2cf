package org.irmi.orb.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The system properties RMI-IIOP needs on Java 17 under JacORB (design.md): GlassFish ORB 5.0.0's
 * {@code Util} and stub delegates, I-RMI's {@code PortableRemoteObject} delegate (which narrows
 * JacORB references to I-RMI dynamic stubs), and GlassFish's Gmbal start-up switched off.
 * Each is set only when the user has not set it.
 */
public final class RmiSetup {

    /** Property name to default value. */
    public static final Map<String, String> SYSTEM_PROPERTIES;

    static {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("javax.rmi.CORBA.UtilClass", "org.irmi.orb.internal.rmi.IrmiUtil");
        m.put("javax.rmi.CORBA.PortableRemoteObjectClass", "org.irmi.orb.internal.rmi.IrmiPortableRemoteObject");
        m.put("javax.rmi.CORBA.StubClass", "com.sun.corba.ee.impl.javax.rmi.CORBA.StubDelegateImpl");
        m.put("org.omg.CORBA.SkipGmbalInit", "true");
        SYSTEM_PROPERTIES = Map.copyOf(m);
    }

    private RmiSetup() {
    }

    /** Sets each property that is not set yet. Idempotent. */
    public static synchronized void installSystemProperties() {
        for (Map.Entry<String, String> e : SYSTEM_PROPERTIES.entrySet()) {
            if (System.getProperty(e.getKey()) == null) {
                System.setProperty(e.getKey(), e.getValue());
            }
        }
    }
}
