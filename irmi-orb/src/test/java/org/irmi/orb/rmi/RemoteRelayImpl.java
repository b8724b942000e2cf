package org.irmi.orb.rmi;

import java.rmi.RemoteException;

/** The relay servant. */
public class RemoteRelayImpl implements RemoteRelay {

    @Override
    public String relay(RemoteEcho target, String text) throws RemoteException {
        return target.echoText(text);
    }

    @Override
    public RemoteEcho passBack(RemoteEcho target) {
        return target;
    }
}
