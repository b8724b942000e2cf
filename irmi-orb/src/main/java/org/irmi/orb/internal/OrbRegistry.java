package org.irmi.orb.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.irmi.orb.IrmiORB;

/**
 * Finds the {@link IrmiORB} behind a JacORB ORB. JacORB code (listeners, interceptors, object
 * references' {@code _orb()}) only sees the JacORB ORB; the I-RMI front passes its instance id
 * through the configuration property {@link #INSTANCE_PROPERTY} while JacORB starts.
 */
public final class OrbRegistry {

    /** Configuration property carrying the I-RMI instance id into JacORB. */
    public static final String INSTANCE_PROPERTY = "irmi.instance";

    private static final AtomicLong IDS = new AtomicLong();
    private static final Map<String, IrmiORB> BY_INSTANCE = new ConcurrentHashMap<>();
    private static final Map<org.omg.CORBA.ORB, IrmiORB> BY_JACORB = new ConcurrentHashMap<>();

    private OrbRegistry() {
    }

    /** Reserves an instance id for an ORB being started. */
    public static String reserve(IrmiORB orb) {
        String id = "irmi-" + IDS.incrementAndGet();
        BY_INSTANCE.put(id, orb);
        return id;
    }

    /** Binds the started JacORB ORB (null when its start failed) and drops the reservation. */
    public static void bind(String instance, IrmiORB orb, org.omg.CORBA.ORB jacorb) {
        if (instance != null) {
            BY_INSTANCE.remove(instance);
        }
        if (jacorb != null) {
            BY_JACORB.put(jacorb, orb);
        }
    }

    /** Forgets a destroyed ORB. */
    public static void unbind(org.omg.CORBA.ORB jacorb) {
        if (jacorb != null) {
            BY_JACORB.remove(jacorb);
        }
    }

    /** The I-RMI ORB being started under this instance id, or null. */
    public static IrmiORB forInstance(String instance) {
        return instance == null ? null : BY_INSTANCE.get(instance);
    }

    /** The I-RMI ORB owning this JacORB ORB, or null. */
    public static IrmiORB forJacorb(org.omg.CORBA.ORB jacorb) {
        return jacorb == null ? null : BY_JACORB.get(jacorb);
    }

    /** The I-RMI ORB for a JacORB ORB, during or after its start. */
    public static IrmiORB lookup(org.jacorb.orb.ORB jacorb) {
        IrmiORB orb = forJacorb(jacorb);
        if (orb != null) {
            return orb;
        }
        return forInstance(jacorb.getConfiguration().getAttribute(INSTANCE_PROPERTY, null));
    }
}
