package org.irmi.orb.rmi;

/** A checked application exception declared by {@link RemoteEcho}. */
public class RefusedException extends Exception {
    private static final long serialVersionUID = 1L;

    public RefusedException(String message) {
        super(message);
    }
}
