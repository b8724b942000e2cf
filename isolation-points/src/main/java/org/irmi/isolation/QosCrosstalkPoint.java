package org.irmi.isolation;

/**
 * The QoS-crosstalk isolation point: it turns SLA weights into each connection's read budget per
 * selector turn and its {@code SO_RCVBUF}, following the number of active streams, and applies
 * them through the ORB's {@link ConnectionTuner}.
 *
 * <p>SELECTOR THREAD ONLY: every method is called by the one selector thread that owns the
 * connections, so the point keeps its state without locks.
 */
public interface QosCrosstalkPoint {
    /** A connection was accepted; {@code peerAddress} is the client's IP (weights by address). */
    void onConnectionOpened(long connectionId, String peerAddress);

    /** The connection is gone. */
    void onConnectionClosed(long connectionId);

    /** A request header was parsed on the connection (weights by object key or tag). */
    void onRequestHeader(IncomingRequest request);

    /** The reader read {@code bytes} from the connection in this turn. */
    void onBytesRead(long connectionId, int bytes);

    /** Recomputes the active streams and their budgets; call once per turn or every few ms. */
    void tick(long nowNanos);

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
