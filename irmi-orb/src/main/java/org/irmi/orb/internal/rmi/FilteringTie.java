package org.irmi.orb.internal.rmi;

import java.rmi.NoSuchObjectException;
import java.rmi.Remote;

import javax.rmi.CORBA.Tie;

import org.omg.CORBA.ORB;
import org.omg.CORBA.portable.InputStream;
import org.omg.CORBA.portable.OutputStream;
import org.omg.CORBA.portable.ResponseHandler;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.Servant;

/**
 * GlassFish's tie of an exported Remote object, reading its arguments through a
 * {@link FilteredArgumentStream}: the servant that an application activates in the POA
 * ({@code Util.getTie(impl)} returns it, see {@link IrmiUtil}).
 *
 * <p>Why a wrapper: the tie is where a request's arguments are read for a Remote object, and the
 * only place that knows it is a server reading a client's values; GlassFish's tie class is its
 * own. Everything but {@code _invoke}'s stream is forwarded to GlassFish's tie.
 *
 * <p>THREADS: as GlassFish's tie: any POA thread.
 */
final class FilteringTie extends Servant implements Tie {

    private final Tie inner;

    FilteringTie(Tie inner) {
        this.inner = inner;
    }

    /** GlassFish's tie behind this one. */
    Tie inner() {
        return inner;
    }

    @Override
    public OutputStream _invoke(String method, InputStream input, ResponseHandler handler) {
        ValueFilter filter = ValueFilters.forOrb(_orb());
        try {
            return inner._invoke(method,
                    new FilteredArgumentStream((org.omg.CORBA_2_3.portable.InputStream) input, filter), handler);
        } catch (org.omg.CORBA.SystemException e) {
            if (e.minor == org.irmi.isolation.MinorCodes.VALUE_REFUSED) {
                return refused(e, handler);
            }
            throw e;
        } catch (Exception e) {
            // GlassFish's tie maps what the servant throws to system or declared exceptions, so what
            // escapes here came from reading malformed arguments (an index out of bounds in a value
            // reader, say, or an IOException GlassFish rethrows unchecked)
            ValueFilters.refused(ValueRefusal.MALFORMED, "arguments to " + method, e.toString());
            org.omg.CORBA.MARSHAL m = new org.omg.CORBA.MARSHAL("malformed arguments to " + method + ": " + e,
                    org.irmi.isolation.MinorCodes.VALUE_REFUSED, org.omg.CORBA.CompletionStatus.COMPLETED_MAYBE);
            m.setStackTrace(new StackTraceElement[0]);
            return refused(m, handler);
        }
    }

    /**
     * Answers a refusal (counted and logged, rate-limited, where it was made) with {@code e}. On
     * JacORB's request the exception is set as the reply, not thrown: JacORB logs every system
     * exception a servant throws at INFO with its stack trace (its {@code RequestProcessor}), a line
     * per request that the client chooses. Elsewhere it is thrown.
     */
    private static OutputStream refused(org.omg.CORBA.SystemException e, ResponseHandler handler) {
        if (handler instanceof org.jacorb.orb.dsi.ServerRequest request) {
            request.setSystemException(e);
            return null;
        }
        throw e;
    }

    @Override
    public String[] _all_interfaces(POA poa, byte[] objectId) {
        return ((Servant) inner)._all_interfaces(poa, objectId);
    }

    @Override
    public org.omg.CORBA.Object thisObject() {
        return _this_object();
    }

    @Override
    public void deactivate() throws NoSuchObjectException {
        try {
            _poa().deactivate_object(_object_id());
        } catch (org.omg.PortableServer.POAPackage.WrongPolicy
                 | org.omg.PortableServer.POAPackage.ObjectNotActive e) {
            throw new NoSuchObjectException(e.toString());
        }
    }

    @Override
    public ORB orb() {
        return _orb();
    }

    @Override
    public void orb(ORB orb) {
        inner.orb(orb);
    }

    @Override
    public void setTarget(Remote target) {
        inner.setTarget(target);
    }

    @Override
    public Remote getTarget() {
        return inner.getTarget();
    }
}
