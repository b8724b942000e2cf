package org.irmi.orb.rmi;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.concurrent.atomic.AtomicInteger;

/** A value that counts how often it is deserialized: a server that reads it ran code a client chose. */
public final class ReadTripwire implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final AtomicInteger READS = new AtomicInteger();

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        READS.incrementAndGet();
        in.defaultReadObject();
    }
}
