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

    /**
     * After {@link #quiesce} returned true: lets {@code orb}'s POAs forget the requests they still
     * count as running, of which none can be (see {@code JacorbPoaInternals.forgetFinishedRequests}),
     * so that destroying them does not wait for ever.
     *
     * @return how many object ids were forgotten
     */
    public static int forgetFinishedRequests(org.jacorb.orb.ORB orb) {
        return JacorbPoaInternals.forgetFinishedRequests(orb);
    }
}
