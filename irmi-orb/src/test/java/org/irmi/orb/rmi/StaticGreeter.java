package org.irmi.orb.rmi;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** A Remote interface that ships a static stub ({@link _StaticGreeter_Stub}), as rmic -iiop makes. */
public interface StaticGreeter extends Remote {

    String hello(String name) throws RemoteException;
}
