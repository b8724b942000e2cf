package org.irmi.orb;

/**
 * Told, for every request message the server has read completely, how long it took to assemble
 * at the IIOP level: from the selector turn that read its first byte to the read that completed
 * it (the last fragment, for a fragmented message). That is the figure the paper's QoS-crosstalk
 * experiment measures, and what the crosstalk point's read budgets change.
 *
 * <p>THREADING: SELECTOR THREAD ONLY. It must be cheap and never block: every connection of the
 * server waits while it runs.
 */
@FunctionalInterface
public interface MessageAssemblyListener {

    /**
     * @param connectionId   the server connection the message arrived on
     * @param messageBytes   the whole message, with its 12-byte header (reassembled size for fragments)
     * @param firstByteNanos {@link System#nanoTime()} of the turn that read the message's first byte
     * @param completeNanos  {@link System#nanoTime()} when its last byte was read
     */
    void onAssembled(long connectionId, int messageBytes, long firstByteNanos, long completeNanos);
}
