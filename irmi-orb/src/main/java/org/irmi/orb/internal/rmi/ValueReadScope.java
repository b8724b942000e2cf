package org.irmi.orb.internal.rmi;

import org.omg.CORBA.portable.InputStream;

/**
 * The state of one top-level read of a server's arguments (a value, an abstract interface or an
 * Any, with everything nested in it): depth, references and bytes so far, against the
 * {@link ValueFilter}'s limits.
 *
 * <p>Why a thread-local: the nested reads happen inside JacORB and GlassFish, which pass their own
 * stream around; the scope is how the value handler and the class loading hooks know that they
 * are reading a server's arguments, and for which filter. Opened and closed by
 * {@link FilteredArgumentStream} around each top-level read.
 *
 * <p>THREADS: confined to the thread that opened it.
 */
final class ValueReadScope {

    private static final ThreadLocal<ValueReadScope> CURRENT = new ThreadLocal<>();

    final ValueFilter filter;
    private final InputStream stream;
    private final int startAvailable;
    private int depth;
    private long refs;

    private ValueReadScope(ValueFilter filter, InputStream stream, int startAvailable) {
        this.filter = filter;
        this.stream = stream;
        this.startAvailable = startAvailable;
    }

    /** The scope of this thread's current read, or null outside a server's argument read. */
    static ValueReadScope current() {
        return CURRENT.get();
    }

    /** Opens a scope; null when one is open already (a nested top-level call). */
    static ValueReadScope open(ValueFilter filter, InputStream stream) {
        if (CURRENT.get() != null) {
            return null;
        }
        ValueReadScope s = new ValueReadScope(filter, stream, available(stream));
        CURRENT.set(s);
        return s;
    }

    void close() {
        CURRENT.remove();
    }

    /**
     * A value is about to be read: counts it and checks depth, references and bytes.
     *
     * @return null when allowed, else why it is refused
     */
    String enter() {
        depth++;
        refs++;
        if (depth > filter.maxDepth()) {
            return "depth " + depth + " exceeds maxdepth=" + filter.maxDepth();
        }
        if (refs > filter.maxRefs()) {
            return "value " + refs + " exceeds maxrefs=" + filter.maxRefs();
        }
        long read = startAvailable - available(stream);
        if (filter.maxBytes() >= 0 && read > filter.maxBytes()) {
            return read + " bytes read exceed maxbytes=" + filter.maxBytes();
        }
        return null;
    }

    void exit() {
        depth--;
    }

    private static int available(InputStream in) {
        try {
            return in.available();
        } catch (java.io.IOException e) {
            return 0;
        }
    }
}
