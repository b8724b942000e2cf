package org.irmi.orb.internal;

import java.io.IOException;
import java.io.RandomAccessFile;

/**
 * The calling thread's scheduler statistics, from Linux's {@code /proc/thread-self/schedstat}: its
 * time on a core and its time waiting for one (runnable, not running), in nanoseconds.
 *
 * <p>Each thread keeps its file open (it names the thread that opened it) and reads it with one
 * seek and one read into a buffer of its own: about a microsecond, no allocation. Where the file
 * does not exist (not Linux, or no scheduler statistics), {@link #read} returns false and nothing
 * is measured; where it cannot be opened now (the process out of descriptors) it is tried again at
 * the thread's next sample.
 *
 * <p>THREADING: each thread reads its own statistics.
 */
final class ThreadSchedStat {

    private static final String PATH = "/proc/thread-self/schedstat";
    /** Two 20-digit numbers and a count fit. */
    private static final int BUFFER_BYTES = 64;

    private static final class Handle {
        /** Null while it could not be opened (tried again at the thread's next sample). */
        RandomAccessFile file;
        final byte[] buffer = new byte[BUFFER_BYTES];

        Handle(RandomAccessFile file) {
            this.file = file;
        }

        /** This thread's handle, its file opened if it can be now. */
        static Handle open() {
            Handle h = new Handle(null);
            h.reopen();
            return h;
        }

        RandomAccessFile reopen() {
            try {
                file = new RandomAccessFile(PATH, "r");
            } catch (IOException | RuntimeException e) {
                file = null; // out of descriptors, say
            }
            return file;
        }
    }

    /**
     * Made by {@code withInitial}, not by a null test on the request path: a thread's first sample
     * then takes {@code ThreadLocal}'s own initial-value branch, which the whole JVM's profile has
     * seen taken, instead of a branch of ours that the JIT compiled as never taken. Taking that one
     * (a new dispatch thread's first request, minutes into a run) threw away the compiled request
     * path it was inlined into, and compiling it again held the CPU for most of a second.
     */
    private static final ThreadLocal<Handle> HANDLES = ThreadLocal.withInitial(Handle::open);
    /** No such file on this platform: not tried on any thread. */
    private static final boolean unavailable = !new java.io.File(PATH).exists();

    private ThreadSchedStat() {
    }

    /**
     * Loads this class and the one it makes per thread. Called when the server starts: a class
     * loaded on a request's path needs a file descriptor, and a server out of them (a flood of
     * connections) would otherwise fail that request with a {@code NoClassDefFoundError}.
     */
    static void preload() {
        new Handle(null).getClass();
    }

    /**
     * Reads this thread's statistics into {@code out}: {@code out[at]} its time on a core,
     * {@code out[at + 1]} its time waiting for one.
     *
     * @return false when they cannot be read (then {@code out} is unchanged)
     */
    static boolean read(long[] out, int at) {
        if (unavailable) {
            return false;
        }
        Handle h = HANDLES.get();
        RandomAccessFile file = h.file;
        if (file == null && (file = h.reopen()) == null) {
            return false;
        }
        try {
            file.seek(0);
            int n = file.read(h.buffer);
            return n > 0 && parse(h.buffer, n, out, at);
        } catch (IOException | RuntimeException e) {
            // not now (out of descriptors, say): tried again at this thread's next sample
            return false;
        }
    }

    /**
     * Parses "cpuNanos runQueueNanos slices" from {@code bytes[0..length)} into {@code out[at]} and
     * {@code out[at + 1]}; false (and {@code out} unchanged) when it is not that.
     */
    static boolean parse(byte[] bytes, int length, long[] out, int at) {
        long first = 0;
        int i = 0;
        for (int field = 0; field < 2; field++) {
            while (i < length && bytes[i] == ' ') {
                i++;
            }
            int start = i;
            long x = 0;
            while (i < length && bytes[i] >= '0' && bytes[i] <= '9') {
                x = x * 10 + (bytes[i] - '0');
                i++;
            }
            if (i == start) {
                return false;
            }
            if (field == 0) {
                first = x;
            } else {
                out[at] = first;
                out[at + 1] = x;
            }
        }
        return true;
    }
}
