package org.irmi.it;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** The RMI-IIOP service the end-to-end tests export: cheap operations, a poison one, a sink. */
public interface Trade extends Remote {
    /** Cheap: a quote. */
    String quote(String symbol) throws RemoteException;

    /** Cheap: a buy. */
    int buy(String symbol, int quantity) throws RemoteException;

    /** The paper's poison: allocates 10 KB arrays in a tight loop for {@code millis}. */
    long poison(long millis) throws RemoteException;

    /** A sink for forwarded events; slow while the servant is slowed. */
    int deliver(byte[] event) throws RemoteException;

    /** Receives a large payload (crosstalk streams). */
    int bulk(byte[] payload) throws RemoteException;
}
