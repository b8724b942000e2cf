package org.irmi.bench.experiments.internal.slowclient;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** The secondary server's RMI-IIOP interface (the paper's Figure 3): the primary's worker forwards each event to it. */
public interface SecondaryNode extends Remote {

    /**
     * Processes one event.
     *
     * @return how many events the secondary has processed so far, this one included. A call that
     *     I-RMI short-circuits returns the SLA's {@code result} instead (0 in slow-client.yaml), so
     *     the worker can tell eliminated forwards from delivered ones without the ORB telling it.
     */
    long forward(long stampNanos, byte[] event) throws RemoteException;
}
