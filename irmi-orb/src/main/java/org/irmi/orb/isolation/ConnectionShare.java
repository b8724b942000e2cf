package org.irmi.orb.isolation;

/**
 * One server connection as the QoS-crosstalk point treats it: its weight, the read budget and
 * {@code SO_RCVBUF} that follow from it, and the share of the reader it actually got over the last
 * interval (about half a second). An immutable snapshot taken by the isolation ticker.
 *
 * @param connectionId       the transport's id
 * @param peerAddress        the client's {@code host:port}
 * @param weight             its weight from the SLA's rules
 * @param active             whether it counts as an active stream (read recently)
 * @param weightSharePercent its weight over the weights of all active streams, 0 when idle
 * @param readBudgetBytes    bytes the reader may read from it per selector turn
 * @param receiveBufferBytes {@code SO_RCVBUF} set on it, -1 while the kernel's autotuning sizes it
 * @param bytesRead          bytes read from it since it opened
 * @param bytesPerSecond     bytes read per second over the last interval
 * @param sharePercent       its part of all bytes read over the last interval, percent
 */
public record ConnectionShare(long connectionId, String peerAddress, double weight, boolean active,
                              double weightSharePercent, int readBudgetBytes, int receiveBufferBytes,
                              long bytesRead, double bytesPerSecond, double sharePercent) {
}
