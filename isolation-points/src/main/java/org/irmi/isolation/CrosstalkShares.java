package org.irmi.isolation;

/**
 * The QoS-crosstalk point's view of each connection, as the dashboard and the share sampler read
 * it: the active streams, each connection's weight, bytes read and receive buffer. Part of
 * {@link QosCrosstalkPoint}.
 */
public interface CrosstalkShares {
    /** @return the streams active at the last tick. */
    int activeStreams();

    /** @return the weight the connection reads with (with {@code weightPer: rule}, its rule's shared among the rule's active connections; the default weight when unknown). */
    double weightOf(long connectionId);

    /** @return bytes read from the connection since it opened. */
    long bytesRead(long connectionId);

    /**
     * @return the {@code SO_RCVBUF} last set on the connection, in bytes, or -1 while the kernel's
     *         autotuning sizes it
     */
    default int receiveBufferBytes(long connectionId) {
        return -1;
    }
}
