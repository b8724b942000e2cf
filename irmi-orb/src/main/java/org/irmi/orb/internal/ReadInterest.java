package org.irmi.orb.internal;

import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;

/**
 * Whether the selector reads a connection: the one place its OP_READ interest is turned off and on.
 * Each reason to hold a connection unread keeps its own flag on the connection (the inbound budget,
 * its share of the requests in flight, the read pacer, a TLS handshake, the loop no longer reading);
 * reading resumes only when none remains ({@link InboundConnection#readInterestOps}).
 *
 * <p>SELECTOR THREAD ONLY.
 */
final class ReadInterest {

    private ReadInterest() {
    }

    /**
     * Turns {@code c}'s OP_READ off.
     *
     * @return false when its key is gone (closed meanwhile)
     */
    static boolean stop(InboundConnection c) {
        SelectionKey k = c.key;
        if (k == null || !k.isValid()) {
            return false;
        }
        try {
            k.interestOps(k.interestOps() & ~SelectionKey.OP_READ);
            return true;
        } catch (CancelledKeyException e) {
            return false;
        }
    }

    /** Turns {@code c}'s OP_READ back on, unless a reason to hold it off remains. */
    static void resume(InboundConnection c) {
        SelectionKey k = c.key;
        if (c.readInterestOps() == 0 || k == null || !k.isValid()) {
            return;
        }
        try {
            k.interestOpsOr(SelectionKey.OP_READ);
        } catch (CancelledKeyException e) {
            // closed meanwhile
        }
    }
}
