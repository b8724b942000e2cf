package org.irmi.orb.internal.rmi;

import java.util.Set;

/**
 * Which RMI-IIOP value classes a server reads, and how much: the deserialization filter of I-RMI.
 *
 * <p>Why: RMI-IIOP reads every argument that is not primitive, remote or an Any as a value whose
 * class the client names on the wire; without a filter the server loads that class and runs its
 * {@code readObject}, the path of the well-known IIOP deserialization attacks. This filter is an
 * allow-list, decided on the class name before the class is loaded:
 * <ol>
 *   <li>{@code jdk.serialFilter} (system or security property), if set: its first matching pattern
 *       decides;</li>
 *   <li>{@code irmi.rmi.value_filter} (ORB property), if set, else {@link #DEFAULT_PATTERNS}: the
 *       JDK value classes RMI-IIOP applications normally pass; first match decides;</li>
 *   <li>the classes reachable from the parameter, return and exception types of the exported
 *       Remote interfaces ({@link ReachableTypes}) are allowed;</li>
 *   <li>anything else is refused.</li>
 * </ol>
 * Primitive arrays are allowed (their length is limited). Limits ({@code maxdepth}, {@code maxrefs},
 * {@code maxbytes}, {@code maxarray}): the stricter of those both filter strings set, else the
 * defaults, which apply whether or not {@code jdk.serialFilter} is set. Beyond these, I-RMI's own
 * bounds: hash collections nested at most {@link #DEFAULT_MAX_HASH_NESTING} deep, and a CPU budget per
 * argument read ({@link #cpuBudgetNanos}).
 *
 * <p>THREADS: any thread; the set of exported types only grows.
 */
final class ValueFilter {

    /** The JDK value classes RMI-IIOP applications normally pass. Widen with {@code irmi.rmi.value_filter}. */
    static final String DEFAULT_PATTERNS = String.join(";",
            "java.lang.String", "java.lang.Boolean", "java.lang.Byte", "java.lang.Character", "java.lang.Short",
            "java.lang.Integer", "java.lang.Long", "java.lang.Float", "java.lang.Double", "java.lang.Number",
            "java.lang.Enum", "java.lang.StackTraceElement", "java.lang.Throwable", "java.lang.Exception",
            "java.lang.RuntimeException", "java.math.BigDecimal", "java.math.BigInteger",
            "java.util.Date", "java.sql.Date", "java.sql.Time", "java.sql.Timestamp",
            "java.util.ArrayList", "java.util.LinkedList", "java.util.Vector", "java.util.HashMap",
            "java.util.LinkedHashMap", "java.util.TreeMap", "java.util.Hashtable", "java.util.HashSet",
            "java.util.LinkedHashSet", "java.util.TreeSet", "java.util.Arrays$ArrayList",
            "java.util.Collections$Unmodifiable*", "java.util.Collections$Empty*",
            "java.util.Collections$Singleton*", "java.util.Collections$Synchronized*", "java.util.Locale",
            "java.util.UUID", "java.util.Currency", "java.time.Ser", "java.rmi.RemoteException",
            "java.rmi.*Exception", "javax.rmi.CORBA.ClassDesc", "org.omg.CORBA.*");

    static final long DEFAULT_MAX_DEPTH = 200;
    static final long DEFAULT_MAX_REFS = 1_000_000;
    /**
     * 64 Mi elements, the most a message of the default {@code max_message_bytes} (64 MiB) could
     * carry of {@code byte[]}: every length is also checked against the bytes left in the message
     * ({@link FilteringValueHandler}, {@link ValueReadScope#allocating}), which is the bound that
     * bites; this one holds whatever the message size is configured to.
     */
    static final long DEFAULT_MAX_ARRAY = 64L * 1024 * 1024;
    /** 64 MiB: the default {@code max_message_bytes}; a bound that holds whatever that is configured to. */
    static final long DEFAULT_MAX_BYTES = 64L * 1024 * 1024;
    /**
     * How deep collections may nest in a hash collection (a {@code HashSet} of {@code HashSet}s is
     * 2): {@code Map<String, Map<String, Set<String>>>} is 3. Nested deeper, the
     * {@code hashCode} calls a hash collection's {@code readObject} makes can cost two to the power
     * of the depth (the "SerialDOS" shape: 40 levels fit in 4 KB).
     */
    static final int DEFAULT_MAX_HASH_NESTING = 4;
    /** CPU budget of reading one argument: this much, plus {@link #CPU_NANOS_PER_BYTE} per byte of the message left. */
    static final long CPU_BASE_NANOS = 50_000_000;
    /** About 20 times what GlassFish spends per byte of an ordinary value. */
    static final long CPU_NANOS_PER_BYTE = 1_000;
    /** A hash table of up to this many slots is always allowed (the JDK's small tables, whatever is left). */
    static final long SMALL_COLLECTION_SLOTS = 64;
    /** The collections of one argument may ask for this much before the inbound budget is asked. */
    static final long SMALL_ALLOCATION_BYTES = 64 * 1024;

    private final ValuePatterns jdk;
    private final ValuePatterns configured;
    private final long maxDepth;
    private final long maxRefs;
    private final long maxBytes;
    private final long maxArray;
    private final Set<String> exported;
    private final java.util.function.LongSupplier freeInboundBytes;
    private volatile FilteringClassLoader lastLoader;

    /**
     * @param jdkSerialFilter the {@code jdk.serialFilter} string, or null
     * @param configured      the {@code irmi.rmi.value_filter} string, or null for {@link #DEFAULT_PATTERNS}
     * @param exported        names of classes reachable from exported Remote interfaces (read live)
     * @param freeInboundBytes what the inbound memory budget has free now, in bytes
     */
    ValueFilter(String jdkSerialFilter, String configured, Set<String> exported,
                java.util.function.LongSupplier freeInboundBytes) {
        this.exported = exported;
        this.freeInboundBytes = freeInboundBytes;
        this.jdk = ValuePatterns.parse(jdkSerialFilter);
        this.configured = ValuePatterns.parse(configured == null ? DEFAULT_PATTERNS : configured);
        this.maxDepth = limit(DEFAULT_MAX_DEPTH, jdk.maxDepth(), this.configured.maxDepth());
        this.maxRefs = limit(DEFAULT_MAX_REFS, jdk.maxRefs(), this.configured.maxRefs());
        this.maxBytes = limit(DEFAULT_MAX_BYTES, jdk.maxBytes(), this.configured.maxBytes());
        this.maxArray = limit(DEFAULT_MAX_ARRAY, jdk.maxArray(), this.configured.maxArray());
    }

    private static long limit(long dflt, long a, long b) {
        long l = ValuePatterns.stricter(a, b);
        return l < 0 ? dflt : l;
    }

    /**
     * True when a value of the class named {@code className} (a Java name, or an array descriptor
     * such as {@code [[Ljava.lang.String;}) may be read. {@code moduleName} is null before loading.
     */
    boolean allows(String className, String moduleName) {
        String element = elementName(className);
        if (element == null) {
            return true; // an array of primitives: only its length is limited
        }
        ValuePatterns.Verdict v = jdk.check(element, moduleName);
        if (v == ValuePatterns.Verdict.UNDECIDED) {
            v = configured.check(element, moduleName);
        }
        if (v != ValuePatterns.Verdict.UNDECIDED) {
            return v == ValuePatterns.Verdict.ALLOWED;
        }
        return exported.contains(element);
    }

    /** True when {@code c} may be read (after loading: module-qualified patterns apply exactly). */
    boolean allows(Class<?> c) {
        Class<?> e = c;
        while (e.isArray()) {
            e = e.getComponentType();
        }
        if (e.isPrimitive()) {
            return true;
        }
        return allows(e.getName(), e.getModule().getName());
    }

    /** The element class name of an array descriptor, the name itself otherwise; null for primitive elements. */
    static String elementName(String className) {
        if (!className.startsWith("[")) {
            return className;
        }
        int i = 0;
        while (i < className.length() && className.charAt(i) == '[') {
            i++;
        }
        if (i < className.length() && className.charAt(i) == 'L' && className.endsWith(";")) {
            return className.substring(i + 1, className.length() - 1);
        }
        return null;
    }

    /** A class loader in front of {@code context} that refuses what this filter does not allow; cached per loader. */
    ClassLoader contextLoader(ClassLoader context) {
        FilteringClassLoader last = lastLoader;
        if (last == null || last.getParent() != context) {
            last = new FilteringClassLoader(context, this);
            lastLoader = last;
        }
        return last;
    }

    long maxDepth() {
        return maxDepth;
    }

    long maxRefs() {
        return maxRefs;
    }

    long maxBytes() {
        return maxBytes;
    }

    long maxArray() {
        return maxArray;
    }

    int maxHashNesting() {
        return DEFAULT_MAX_HASH_NESTING;
    }

    /** The CPU budget of reading an argument from a message with {@code bytesLeft} bytes left, in nanoseconds. */
    long cpuBudgetNanos(long bytesLeft) {
        return CPU_BASE_NANOS + CPU_NANOS_PER_BYTE * Math.max(0, bytesLeft);
    }

    /** What the inbound memory budget has free now, in bytes. */
    long freeInboundBytes() {
        return freeInboundBytes.getAsLong();
    }
}
