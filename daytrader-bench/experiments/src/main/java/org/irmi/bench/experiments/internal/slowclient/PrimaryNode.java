package org.irmi.bench.experiments.internal.slowclient;

import java.rmi.Remote;
import java.rmi.RemoteException;

/**
 * The primary server's RMI-IIOP interface (the paper's Figure 3): the event source pushes events
 * into it, the external client fetches its cached object from it. A {@code java.rmi.Remote}
 * interface, as in the paper, so that I-RMI's slow-client point sees the call before the
 * arguments are marshalled.
 */
public interface PrimaryNode extends Remote {

    /** One event from the external source; queued for the worker to forward. */
    void push(long stampNanos, byte[] event) throws RemoteException;

    /** @return the primary's cached object (1 MB), the same array for every call */
    byte[] fetch() throws RemoteException;
}
