package org.irmi.orb.internal.rmi;

import java.rmi.NoSuchObjectException;
import java.rmi.Remote;
import java.rmi.RemoteException;

import javax.rmi.CORBA.PortableRemoteObjectDelegate;

import org.omg.CORBA.portable.ObjectImpl;

/**
 * The {@code javax.rmi.PortableRemoteObject} delegate I-RMI installs. Exporting, ties and
 * {@code toStub} are GlassFish ORB 5.0.0's. {@code narrow} of a JacORB reference to a
 * {@code java.rmi.Remote} interface returns the interface's static stub where the application has
 * one ({@code rmic -iiop}'s {@code _Name_Stub}, in the interface's package, as every RMI-IIOP ORB
 * looks for it), and otherwise an I-RMI dynamic stub ({@link RmiStubs}), because GlassFish's dynamic
 * stubs need GlassFish's ORB; everything else is GlassFish's narrow.
 *
 * <p>A static stub marshals its arguments itself and then calls JacORB, so the slow-client point
 * decides on its calls after marshalling, as on IDL calls (a short-circuit is then a
 * {@code TRANSIENT}); dynamic stubs decide before.
 */
public final class IrmiPortableRemoteObject implements PortableRemoteObjectDelegate {

    private final PortableRemoteObjectDelegate glassfish = new com.sun.corba.ee.impl.javax.rmi.PortableRemoteObject();

    @Override
    public void exportObject(Remote obj) throws RemoteException {
        glassfish.exportObject(obj);
    }

    @Override
    public Remote toStub(Remote obj) throws NoSuchObjectException {
        return glassfish.toStub(obj);
    }

    @Override
    public void unexportObject(Remote obj) throws NoSuchObjectException {
        glassfish.unexportObject(obj);
    }

    @Override
    public Object narrow(Object narrowFrom, Class narrowTo) throws ClassCastException {
        if (narrowFrom == null) {
            return null;
        }
        if (narrowTo == null) {
            throw new NullPointerException("narrowTo");
        }
        if (narrowTo.isInstance(narrowFrom)) {
            return narrowFrom;
        }
        if (narrowFrom instanceof ObjectImpl oi && oi._get_delegate() instanceof org.jacorb.orb.Delegate
                && narrowTo.isInterface() && Remote.class.isAssignableFrom(narrowTo)) {
            Object stub = StaticStubs.create(narrowTo, oi._get_delegate());
            return stub != null ? stub : RmiStubs.create(oi, narrowTo.asSubclass(Remote.class));
        }
        return glassfish.narrow(narrowFrom, narrowTo);
    }

    @Override
    public void connect(Remote target, Remote source) throws RemoteException {
        glassfish.connect(target, source);
    }
}
