package org.irmi.orb.internal;

/**
 * The stall clock of a message being received: when it last made real progress.
 *
 * <p>Why: a clock that any arriving byte resets lets a client hold a partial message (and the
 * memory behind it) forever by sending one byte every 20 seconds, or an empty Fragment. Here the
 * clock only moves when at least {@link #PROGRESS_BYTES} bytes have arrived since it last moved;
 * a message must otherwise complete within the stall timeout of its start. A large message that
 * keeps arriving moves it every kilobyte and never stalls.
 *
 * <p>SELECTOR THREAD ONLY.
 */
final class ProgressClock {

    /** Bytes that count as progress. */
    static final int PROGRESS_BYTES = 1024;

    private long sinceNanos;
    private long bytesSince;

    ProgressClock(long startNanos) {
        this.sinceNanos = startNanos;
    }

    /** {@code n} bytes of the message arrived at {@code nowNanos}; empty input changes nothing. */
    void onBytes(long n, long nowNanos) {
        if (n <= 0) {
            return;
        }
        bytesSince += n;
        if (bytesSince >= PROGRESS_BYTES) {
            sinceNanos = nowNanos;
            bytesSince = 0;
        }
    }

    /** Starts the clock afresh for a new message. */
    void restart(long nowNanos) {
        sinceNanos = nowNanos;
        bytesSince = 0;
    }

    /** When the message last made real progress (or started). */
    long sinceNanos() {
        return sinceNanos;
    }
}
