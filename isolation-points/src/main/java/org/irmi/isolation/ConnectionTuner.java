package org.irmi.isolation;

/**
 * Implemented by the ORB's selector transport so the QoS-crosstalk point can set each
 * connection's read share. SELECTOR THREAD ONLY: the point calls it from its {@code tick} on the
 * selector thread; implementations apply the values at once, without blocking.
 */
public interface ConnectionTuner {
    /** Sets how many bytes the reader reads from the connection in one turn at most. */
    void setReadBudget(long connectionId, int bytesPerTurn);

    /** Sets the connection's {@code SO_RCVBUF} (the kernel may round it). */
    void setReceiveBufferSize(long connectionId, int bytes);
}
