package org.irmi.orb.internal;

import org.irmi.orb.IrmiTransport;

/** Orderly shutdown support for {@link org.irmi.orb.IrmiORB}. */
public final class Shutdowns {

    private Shutdowns() {
    }

    /**
     * Stops reading new requests on an I-RMI transport and waits up to {@code timeoutMillis} for
     * the requests already read to be answered.
     */
    public static boolean quiesce(IrmiTransport transport, long timeoutMillis) {
        return transport instanceof SelectorLoop loop && loop.quiesce(timeoutMillis);
    }
}
