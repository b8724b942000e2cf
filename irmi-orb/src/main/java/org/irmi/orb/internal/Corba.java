package org.irmi.orb.internal;

import org.irmi.orb.Keys;
import org.irmi.orb.Rejection;
import org.jacorb.orb.ParsedIOR;
import org.jacorb.orb.iiop.IIOPAddress;
import org.jacorb.orb.iiop.IIOPProfile;
import org.omg.CORBA.CompletionStatus;
import org.omg.CORBA.SystemException;
import org.omg.CORBA.portable.ObjectImpl;

/** Conversions between the hook types (plain values) and CORBA/JacORB objects. */
public final class Corba {

    private Corba() {
    }

    /** The system exception a rejection describes; unknown names become {@code UNKNOWN}. */
    public static SystemException toSystemException(Rejection r) {
        CompletionStatus status = CompletionStatus.from_int(r.completed().ordinal());
        try {
            Class<?> c = Class.forName("org.omg.CORBA." + r.exceptionName());
            if (SystemException.class.isAssignableFrom(c)) {
                return (SystemException) c.getConstructor(String.class, int.class, CompletionStatus.class)
                        .newInstance(r.message(), r.minorCode(), status);
            }
        } catch (ReflectiveOperationException ignored) {
            // fall through
        }
        return new org.omg.CORBA.UNKNOWN("unknown system exception " + r.exceptionName() + ": " + r.message(),
                r.minorCode(), status);
    }

    private static final byte[] NO_KEY = new byte[0];

    /** The client hook's view of a call to {@code target}. */
    public static org.irmi.orb.ClientCall call(org.omg.CORBA.Object target, String operation, boolean oneway,
                                               boolean rmi, Object[] arguments) {
        String host = "";
        int port = -1;
        byte[] key = NO_KEY;
        String typeId = "";
        if (target instanceof ObjectImpl oi && oi._get_delegate() instanceof org.jacorb.orb.Delegate d) {
            ParsedIOR pior = d.getParsedIOR();
            if (pior != null) {
                typeId = pior.getTypeId();
                if (pior.getEffectiveProfile() instanceof IIOPProfile p) {
                    key = p.get_object_key();
                    if (p.getAddress() instanceof IIOPAddress a) {
                        host = a.getIP();
                        port = a.getPort();
                    }
                }
            }
        }
        return new org.irmi.orb.ClientCall(host, port, key, typeId, operation, oneway, rmi, arguments);
    }

    /** {@code host:port/objectKey} of a JacORB reference's effective IIOP profile, or its type id. */
    public static String targetKey(org.omg.CORBA.Object target) {
        if (target instanceof ObjectImpl oi && oi._get_delegate() instanceof org.jacorb.orb.Delegate d) {
            ParsedIOR pior = d.getParsedIOR();
            if (pior != null && pior.getEffectiveProfile() instanceof IIOPProfile p
                    && p.getAddress() instanceof IIOPAddress a) {
                return a.getIP() + ":" + a.getPort() + "/" + Keys.toText(p.get_object_key());
            }
        }
        return String.valueOf(target);
    }

    /** The repository id a JacORB reference declares, or "". */
    public static String typeId(org.omg.CORBA.Object target) {
        if (target instanceof ObjectImpl oi && oi._get_delegate() instanceof org.jacorb.orb.Delegate d) {
            ParsedIOR pior = d.getParsedIOR();
            return pior == null ? "" : pior.getTypeId();
        }
        return "";
    }
}
