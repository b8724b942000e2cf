package org.irmi.isolation;

/**
 * The QoS-crosstalk point as the reader feeds it: connections opening and closing, request headers
 * (for weights by object key or tag) and the bytes read per turn. Part of {@link QosCrosstalkPoint}.
 *
 * <p>SELECTOR THREAD ONLY.
 */
public interface CrosstalkTraffic {
    /** A connection was accepted; {@code peerAddress} is the client's IP (weights by address). */
    void onConnectionOpened(long connectionId, String peerAddress);

    /** The connection is gone. */
    void onConnectionClosed(long connectionId);

    /** A request header was parsed on the connection (weights by object key or tag). */
    void onRequestHeader(IncomingRequest request);

    /** The reader read {@code bytes} from the connection in this turn. */
    void onBytesRead(long connectionId, int bytes);
}
