package org.irmi.orb.internal.rmi;

import java.util.Locale;

/**
 * Why the value filter refused a value: the kinds its rate-limited log lines and its counters are
 * kept by (one line per kind per interval, one counter per kind; a bounded set, so it is a safe
 * metric tag).
 */
public enum ValueRefusal {
    /** The class is not allowed (before loading, or after: module-qualified patterns). */
    CLASS,
    /** {@code maxdepth}, {@code maxrefs} or {@code maxbytes} exceeded. */
    LIMIT,
    /** An array's length: over {@code maxarray}, or more elements than the bytes left can carry. */
    ARRAY,
    /**
     * A collection's size read from the stream ({@code ArrayList}, {@code HashMap}, ...): it would
     * allocate more than the bytes left carry, more than {@code maxarray}, or more than the inbound
     * memory budget has free.
     */
    COLLECTION,
    /** Hash collections nested deeper than the limit (the "SerialDOS" shape: exponential {@code hashCode}). */
    HASH_NESTING,
    /** Reading one argument took more CPU than its budget. */
    CPU,
    /** A value header or a string declared more than the message carries. */
    HEADER,
    /**
     * A TypeCode (an Any's, read before its value) declared more members or bytes than the message
     * carries, nested deeper than the limit, or held an {@code any} JacORB would read unchecked.
     */
    TYPECODE,
    /** The operator's own {@code jdk.serialFilter} refused it. */
    SERIAL_FILTER,
    /** The arguments were malformed (a value reader failed on them). */
    MALFORMED;

    /** The tag value of this kind in metrics and logs ({@code hash_nesting}). */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
