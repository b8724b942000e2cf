package org.irmi.orb.rmi;

import java.rmi.Remote;
import java.rmi.RemoteException;

/**
 * What a hostile client pretends {@link RemoteEcho} is: the same operation name, with a tripwire
 * where the server expects a {@code String}.
 */
public interface TripwireEcho extends Remote {

    String echoText(ReadTripwire t) throws RemoteException;
}
