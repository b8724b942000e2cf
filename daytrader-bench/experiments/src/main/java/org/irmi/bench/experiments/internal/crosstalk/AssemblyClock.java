package org.irmi.bench.experiments.internal.crosstalk;

/**
 * The crosstalk server's record of how long the last large request took to assemble at the IIOP
 * level: from the read that returned its first byte to the read that completed it, as the paper
 * measures (section 3.3). Both ORBs feed it the same way from where they read: plain JacORB
 * through {@link TimingServerSocketFactory} (its reader threads' socket streams), I-RMI through
 * its {@link org.irmi.orb.MessageAssemblyListener} (its selector thread).
 *
 * <p>Only the large stream sends messages of {@link #LARGE_BYTES} or more, one at a time (a closed
 * loop), so when its request is dispatched the latest large record is that request's.
 *
 * <p>THREADING: written by the reader threads, read by the dispatching thread; a volatile pair
 * is enough because a large request completes before it is dispatched.
 */
public final class AssemblyClock {

    /** Messages at least this large are the large stream's (the secondary streams send 2 KB). */
    public static final int LARGE_BYTES = 32 * 1024;

    private static volatile long latestLargeNanos = -1;
    private static volatile long latestLargeBytes = -1;

    private AssemblyClock() {
    }

    /** Records one complete message; messages below {@link #LARGE_BYTES} are ignored. */
    public static void record(long messageBytes, long assemblyNanos) {
        if (messageBytes >= LARGE_BYTES) {
            latestLargeBytes = messageBytes;
            latestLargeNanos = assemblyNanos;
        }
    }

    /**
     * @param minBytes the least size of the message asked about (its payload; the message is larger)
     * @return the assembly time of the latest large message of at least {@code minBytes}, or -1 when
     *     the latest large message was smaller (nothing recorded it: a measurement error the caller reports)
     */
    public static long latestLargeNanos(long minBytes) {
        long nanos = latestLargeNanos;
        return latestLargeBytes >= minBytes ? nanos : -1;
    }
}
