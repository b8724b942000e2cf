package org.irmi.orb.internal.rmi;

import java.util.BitSet;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;

import org.omg.CORBA.portable.InputStream;

/**
 * The state of one top-level read of a server's arguments (a value, an abstract interface or an
 * Any, with everything nested in it), against the {@link ValueFilter}'s limits: depth, references
 * and bytes so far, the nesting of hash collections, the CPU spent, and the memory that the
 * collections read so far asked for. It also keeps the first refusal, so that whatever GlassFish
 * makes of the exception on its way out, the request is answered as that refusal.
 *
 * <p>Why a thread-local: the nested reads happen inside JacORB and GlassFish, which pass their own
 * stream around; the scope is how the value handler, the class loading hooks and the JDK's
 * serialization filter hook ({@link SerialFilterHook}) know that they are reading a server's
 * arguments, and for which filter. Opened and closed by {@link FilteredArgumentStream} around each
 * top-level read.
 *
 * <p>CPU: the thread's CPU clock (a system call) is read only once the wall time passed a tenth of
 * the budget, so that the usual read, far shorter, never pays for it. From then on the CPU charged is
 * the CPU clock's progress plus the wall time before it, but at most a tenth of the budget for that
 * part:
 * <pre>
 *   charged = min(wall at the first clock read, budget / 10) + (CPU clock now - CPU clock then)
 * </pre>
 * The wall time is not CPU time: the reading thread waits for a core beside other work, and a
 * stop-the-world collection stops it in the middle of a read. Charged as CPU, one collection of 50 ms
 * (a server under a poison's allocation) refused a login's arguments. The first clock read happens at
 * the first value entered after a tenth of the budget, so what the cap may leave out is the CPU of
 * one value's read.
 *
 * <p>THREADS: confined to the thread that opened it.
 */
final class ValueReadScope {

    private static final ThreadLocal<ValueReadScope> CURRENT = new ThreadLocal<>();
    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    final ValueFilter filter;
    private final InputStream stream;
    private final int startAvailable;
    private final long startNanos;
    private final long cpuBudgetNanos;
    private long wallAtCpuStartNanos = -1;
    private long cpuStartNanos;
    private int depth;
    private long refs;
    /** Depths (1-based) of the values on the reading path that count towards the hash nesting. */
    private final BitSet hashCounted = new BitSet();
    private int hashNesting;
    private long allocatedBytes;
    private org.omg.CORBA.MARSHAL refusal;

    private ValueReadScope(ValueFilter filter, InputStream stream, int startAvailable) {
        this.filter = filter;
        this.stream = stream;
        this.startAvailable = startAvailable;
        this.startNanos = System.nanoTime();
        this.cpuBudgetNanos = filter.cpuBudgetNanos(startAvailable);
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
     * A value of class {@code c} is about to be read: counts it and checks depth, references,
     * bytes, hash nesting and CPU. Pair every call with {@link #exit}.
     *
     * @return null when allowed, else the refusal to throw (also kept as {@link #refusal})
     */
    org.omg.CORBA.MARSHAL enter(Class<?> c) {
        depth++;
        refs++;
        if (countsForHashNesting(c)) {
            hashCounted.set(depth);
            hashNesting++;
        }
        if (depth > filter.maxDepth()) {
            return refuse(ValueRefusal.LIMIT, c.getName(), "depth " + depth + " exceeds maxdepth=" + filter.maxDepth());
        }
        if (refs > filter.maxRefs()) {
            return refuse(ValueRefusal.LIMIT, c.getName(), "value " + refs + " exceeds maxrefs=" + filter.maxRefs());
        }
        long read = startAvailable - available(stream);
        if (filter.maxBytes() >= 0 && read > filter.maxBytes()) {
            return refuse(ValueRefusal.LIMIT, c.getName(), read + " bytes read exceed maxbytes=" + filter.maxBytes());
        }
        if (hashNesting > filter.maxHashNesting()) {
            return refuse(ValueRefusal.HASH_NESTING, c.getName(), "collections nested " + hashNesting
                    + " deep in a hash collection, more than " + filter.maxHashNesting());
        }
        long cpu = cpuSpentNanos();
        if (cpu > cpuBudgetNanos) {
            return refuse(ValueRefusal.CPU, c.getName(), "reading this argument took " + cpu / 1_000_000
                    + " ms of CPU, its budget is " + cpuBudgetNanos / 1_000_000 + " ms");
        }
        return null;
    }

    void exit() {
        if (hashCounted.get(depth)) {
            hashCounted.clear(depth);
            hashNesting--;
        }
        depth--;
    }

    /**
     * Whether a value of {@code c} counts towards the hash nesting: a hash-based set or map, or any
     * collection or map inside one (a list's {@code hashCode} visits its elements too). Nested that
     * way, {@code hashCode} can cost two to the power of the depth while the references stay few.
     */
    private boolean countsForHashNesting(Class<?> c) {
        if (hashNesting > 0) {
            return java.util.Collection.class.isAssignableFrom(c) || Map.class.isAssignableFrom(c);
        }
        return (Set.class.isAssignableFrom(c) && !SortedSet.class.isAssignableFrom(c))
                || (Map.class.isAssignableFrom(c) && !SortedMap.class.isAssignableFrom(c));
    }

    /**
     * An array of {@code arrayLength} elements of {@code arrayClass} is about to be allocated by a
     * value's own {@code readObject} (a collection sizing its storage from a count in the stream,
     * seen through the JDK's serialization filter hook): refused when it exceeds {@code maxarray},
     * when it has more slots than there are bytes left in the message (an element of a collection
     * takes at least 4 bytes on the wire, an entry of a map at least 8, and a hash table has at
     * most 8 slots per entry, at the smallest load factor the JDK accepts), or when what the arrays of this argument ask for
     * together exceeds what the inbound memory budget has free.
     *
     * @return null when allowed, else the refusal (also kept as {@link #refusal})
     */
    org.omg.CORBA.MARSHAL allocating(Class<?> arrayClass, long arrayLength) {
        String what = arrayClass.getComponentType().getName() + "[" + arrayLength + "]";
        if (filter.maxArray() >= 0 && arrayLength > filter.maxArray()) {
            return refuse(ValueRefusal.COLLECTION, what, "length exceeds maxarray=" + filter.maxArray());
        }
        long left = available(stream);
        if (arrayLength > left + ValueFilter.SMALL_COLLECTION_SLOTS) {
            return refuse(ValueRefusal.COLLECTION, what, "a size read from the stream asks for " + arrayLength
                    + " slots, the message has " + left + " bytes left");
        }
        allocatedBytes += 16 + arrayLength * elementBytes(arrayClass.getComponentType());
        if (allocatedBytes > ValueFilter.SMALL_ALLOCATION_BYTES) {
            long free = filter.freeInboundBytes();
            if (allocatedBytes > free) {
                return refuse(ValueRefusal.COLLECTION, what, "the collections of this argument ask for "
                        + allocatedBytes + " bytes, the inbound memory budget has " + Math.max(0, free) + " free");
            }
        }
        return null;
    }

    /** Heap bytes per element (8 for references: the bound without compressed oops). */
    private static int elementBytes(Class<?> component) {
        if (component == byte.class || component == boolean.class) {
            return 1;
        }
        if (component == char.class || component == short.class) {
            return 2;
        }
        if (component == int.class || component == float.class) {
            return 4;
        }
        return 8;
    }

    /** The operator's {@code jdk.serialFilter} refused what {@code what} names. */
    org.omg.CORBA.MARSHAL refusedBySerialFilter(String what) {
        return refuse(ValueRefusal.SERIAL_FILTER, what, "refused by jdk.serialFilter");
    }

    /** Records a refusal (the first one is kept), counts and logs it (rate-limited); returns it. */
    org.omg.CORBA.MARSHAL refuse(ValueRefusal kind, String what, String why) {
        ValueFilters.refused(kind, what, why);
        org.omg.CORBA.MARSHAL m = ValueFilters.marshal(kind, what, why);
        if (refusal == null) {
            refusal = m;
        }
        return m;
    }

    /** The first refusal of this read, or null. */
    org.omg.CORBA.MARSHAL refusal() {
        return refusal;
    }

    /** CPU charged since the scope opened (see the class comment). */
    private long cpuSpentNanos() {
        long wall = System.nanoTime() - startNanos;
        if (wall <= cpuBudgetNanos / 10) {
            return wall; // at most a tenth of the budget: never a refusal
        }
        if (wallAtCpuStartNanos < 0) {
            wallAtCpuStartNanos = Math.min(wall, cpuBudgetNanos / 10);
            cpuStartNanos = THREADS.getCurrentThreadCpuTime();
            return wallAtCpuStartNanos;
        }
        return wallAtCpuStartNanos + (THREADS.getCurrentThreadCpuTime() - cpuStartNanos);
    }

    private static int available(InputStream in) {
        try {
            return in.available();
        } catch (java.io.IOException e) {
            return 0;
        }
    }
}
