package org.irmi.quickstart;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** The remote interface of the quick start (docs/quick-start.md): plain RMI. */
public interface Hello extends Remote {

    String greet(String name) throws RemoteException;
}
