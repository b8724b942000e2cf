package org.irmi.orb;

/**
 * One open server connection, as a snapshot.
 *
 * @param connectionId      the transport's id for it
 * @param peerAddress       the client's {@code host:port}
 * @param readBudgetBytes   the bytes the reader reads from it per selector turn
 * @param bytesRead         bytes read from it so far
 * @param pendingOutboundBytes reply bytes waiting for the client to read
 * @param budgetFilledTurns selector turns in which the reader read this connection's whole budget,
 *                          that is, turns in which the connection still had data waiting: the
 *                          measure of whether a stream is backlogged (and so gets its weighted share)
 */
public record ConnectionView(long connectionId, String peerAddress, int readBudgetBytes, long bytesRead,
                             long pendingOutboundBytes, long budgetFilledTurns) {
}
