package org.irmi.orb.rmi;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** Takes and returns references to other remote objects. */
public interface RemoteRelay extends Remote {

    /** Calls {@code target} with {@code text}. */
    String relay(RemoteEcho target, String text) throws RemoteException;

    /** Returns the reference it was given. */
    RemoteEcho passBack(RemoteEcho target) throws RemoteException;
}
