package org.irmi.it;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** The primary of the paper's Fig. 3: receives events and queues them for a secondary. */
public interface Primary extends Remote {
    /** Queues one event; a worker forwards it to the secondary later. */
    void publish(byte[] event) throws RemoteException;
}
