package org.irmi.orb.rmi;

import java.rmi.RemoteException;
import java.rmi.UnexpectedException;

import javax.rmi.CORBA.Stub;
import javax.rmi.CORBA.Util;

import org.omg.CORBA.SystemException;
import org.omg.CORBA.portable.ApplicationException;
import org.omg.CORBA.portable.RemarshalException;

/**
 * A static stub written the way {@code rmic -iiop} writes them (the JDK no longer has rmic): it
 * marshals its arguments itself and calls the ORB through its delegate.
 */
public class _StaticGreeter_Stub extends Stub implements StaticGreeter {

    private static final String[] TYPE_IDS = {"RMI:org.irmi.orb.rmi.StaticGreeter:0000000000000000"};

    @Override
    public String[] _ids() {
        return TYPE_IDS.clone();
    }

    @Override
    public String hello(String name) throws RemoteException {
        while (true) {
            org.omg.CORBA_2_3.portable.InputStream in = null;
            try {
                org.omg.CORBA_2_3.portable.OutputStream out =
                        (org.omg.CORBA_2_3.portable.OutputStream) _request("hello", true);
                out.write_value(name, String.class);
                in = (org.omg.CORBA_2_3.portable.InputStream) _invoke(out);
                return (String) in.read_value(String.class);
            } catch (ApplicationException e) {
                throw new UnexpectedException(e.getId());
            } catch (RemarshalException e) {
                // marshal again
            } catch (SystemException e) {
                throw Util.mapSystemException(e);
            } finally {
                _releaseReply(in);
            }
        }
    }
}
