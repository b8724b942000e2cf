package org.irmi.orb;

import java.util.List;

/**
 * The server side of an I-RMI ORB: one selector thread that accepts and reads every connection.
 * This is the lever of the QoS-crosstalk isolation point: the per-connection read budget decides
 * how many bytes each connection may have read per selector turn.
 *
 * <p>THREADING: every method may be called from any thread; changes reach the selector thread
 * through volatile fields or its task queue and take effect at its next turn.
 */
public interface IrmiTransport {

    /** Name of the one reader thread (for thread dumps and tests). */
    String READER_THREAD_NAME = "irmi-selector";

    /** The port the server listens on. */
    int port();

    /** The TLS port ({@code jacorb.security.support_ssl=on}), or -1 without TLS. */
    int tlsPort();

    /**
     * Sets the read budget of one connection, in bytes per selector turn (at least 1).
     *
     * @return false when no such connection is open
     */
    boolean setReadBudget(long connectionId, int bytesPerTurn);

    /** Sets the read budget given to connections accepted from now on, in bytes per turn. */
    void setDefaultReadBudget(int bytesPerTurn);

    /**
     * Sets SO_RCVBUF of one connection (a hint to the kernel), in bytes.
     *
     * @return false when no such connection is open
     */
    boolean setReceiveBufferSize(long connectionId, int bytes);

    /** The open connections. */
    List<ConnectionView> connections();

    /** The transport's counters. */
    TransportStats stats();
}
