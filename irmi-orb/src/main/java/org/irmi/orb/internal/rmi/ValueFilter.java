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
 * {@code maxbytes}, {@code maxarray}) are the stricter of both filter strings and the defaults.
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
     * No array length limit by default: every length is checked against the bytes left in the
     * message anyway ({@link FilteringValueHandler}), which bounds what an array can allocate by
     * the message size; a fixed default would break legitimate bulk {@code byte[]} arguments.
     */
    static final long DEFAULT_MAX_ARRAY = -1;

    private final ValuePatterns jdk;
    private final ValuePatterns configured;
    private final long maxDepth;
    private final long maxRefs;
    private final long maxBytes;
    private final long maxArray;
    private final Set<String> exported;
    private volatile FilteringClassLoader lastLoader;

    /**
     * @param jdkSerialFilter the {@code jdk.serialFilter} string, or null
     * @param configured      the {@code irmi.rmi.value_filter} string, or null for {@link #DEFAULT_PATTERNS}
     * @param exported        names of classes reachable from exported Remote interfaces (read live)
     */
    ValueFilter(String jdkSerialFilter, String configured, Set<String> exported) {
        this.exported = exported;
        this.jdk = ValuePatterns.parse(jdkSerialFilter);
        this.configured = ValuePatterns.parse(configured == null ? DEFAULT_PATTERNS : configured);
        this.maxDepth = limit(DEFAULT_MAX_DEPTH, jdk.maxDepth(), this.configured.maxDepth());
        this.maxRefs = limit(DEFAULT_MAX_REFS, jdk.maxRefs(), this.configured.maxRefs());
        this.maxBytes = limit(-1, jdk.maxBytes(), this.configured.maxBytes());
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

    /** -1: no limit beyond the message size. */
    long maxBytes() {
        return maxBytes;
    }

    /** -1: no limit beyond the bytes left in the message. */
    long maxArray() {
        return maxArray;
    }
}
