package org.irmi.orb.rmi;

import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.concurrent.atomic.AtomicInteger;

/** A value that counts how often it is marshalled, to prove a hook ran before marshalling. */
public final class Tripwire implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final AtomicInteger MARSHALLED = new AtomicInteger();

    private void writeObject(ObjectOutputStream out) throws IOException {
        MARSHALLED.incrementAndGet();
        out.defaultWriteObject();
    }

    @Override
    public String toString() {
        return "tripwire";
    }
}
