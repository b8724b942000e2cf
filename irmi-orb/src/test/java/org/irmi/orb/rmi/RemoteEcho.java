package org.irmi.orb.rmi;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** The RMI-IIOP interface the tests export and call. */
public interface RemoteEcho extends Remote {

    Greeting greet(Greeting g) throws RemoteException;

    String echoText(String s) throws RemoteException;

    int measure(java.io.Serializable value) throws RemoteException;

    void refuse(String why) throws RemoteException, RefusedException;
}
