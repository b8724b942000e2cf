package org.irmi.orb.internal.rmi;

/** Implemented by every I-RMI dynamic RMI-IIOP stub: gives back the CORBA reference behind it. */
public interface IrmiRemoteStub {

    /** The CORBA object reference the stub calls. */
    org.omg.CORBA.Object corbaReference();
}
