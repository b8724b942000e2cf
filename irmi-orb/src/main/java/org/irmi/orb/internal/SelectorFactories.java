package org.irmi.orb.internal;

import org.omg.ETF.Listener;

/**
 * JacORB's IIOP transport with the server listener replaced by the I-RMI selector listener.
 * Profiles, addresses and client connections stay JacORB's own, so IORs and the client side are
 * unchanged. Selected with {@code jacorb.transport.factories}.
 */
public class SelectorFactories extends org.jacorb.orb.iiop.IIOPFactories {

    @Override
    protected Listener create_listener_internal() {
        return new SelectorListener();
    }
}
