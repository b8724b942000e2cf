package org.irmi.orb.internal.rmi;

import java.io.ObjectInputFilter;
import java.util.function.BinaryOperator;

import org.slf4j.LoggerFactory;

/**
 * The JDK serialization filter through which I-RMI sees the sizes that collections read from the
 * stream before they allocate, while a server reads its arguments ({@link ValueReadScope}).
 *
 * <p>Why here: {@code ArrayList}, {@code HashMap}, {@code HashSet}, {@code Hashtable},
 * {@code ArrayDeque}, {@code PriorityQueue} and the like read a count in their own
 * {@code readObject} and size an array from it. Before allocating they call the JDK's
 * {@code checkArray} hook on the {@code ObjectInputStream} they are given (GlassFish's
 * {@code IIOPInputStream}), which asks that stream's {@code ObjectInputFilter} and throws
 * {@code InvalidClassException} when it answers REJECTED. GlassFish 5.0.0 never sets a filter on
 * its streams; each one gets the JVM-wide one when it is built, as
 * {@code ObjectInputFilter.Config}'s filter factory makes it from {@code jdk.serialFilter}. That is
 * the only point where such a count is seen before the allocation, so I-RMI installs:
 * <ol>
 *   <li>a filter factory (JDK 17, JEP 415) that puts this filter in front of whatever filter a
 *       stream would have had (the operator's {@code jdk.serialFilter}, or one the application
 *       sets on its own stream), when no factory was set and no {@code ObjectInputStream} was built
 *       yet in this JVM;</li>
 *   <li>else, when no JVM-wide filter is set, this filter as the JVM-wide filter;</li>
 *   <li>else nothing: the operator's own filter is then the only one the collections ask, and
 *       I-RMI answers its refusals as its own (a WARN line at start says so).</li>
 * </ol>
 * Outside a server's argument read the filter only forwards to the filter behind it (none:
 * UNDECIDED, which the JDK treats as allowed), so other deserialization in the JVM is unchanged.
 *
 * <p>THREADS: any thread; the decision is the calling thread's scope.
 */
final class SerialFilterHook implements ObjectInputFilter {

    /** How the hook was installed. */
    enum Installed { FACTORY, JVM_WIDE_FILTER, NONE }

    private static volatile Installed installed;

    private final ObjectInputFilter next;

    private SerialFilterHook(ObjectInputFilter next) {
        this.next = next;
    }

    /** Installs the hook once per JVM (see the class comment); idempotent. */
    static synchronized Installed install() {
        if (installed != null) {
            return installed;
        }
        Installed how = Installed.NONE;
        try {
            BinaryOperator<ObjectInputFilter> factory = (current, requested) ->
                    requested instanceof SerialFilterHook ? requested : new SerialFilterHook(requested);
            if (System.getProperty("jdk.serialFilterFactory") == null) {
                ObjectInputFilter.Config.setSerialFilterFactory(factory);
                how = Installed.FACTORY;
            }
        } catch (IllegalStateException | SecurityException e) {
            // a factory was set, or an ObjectInputStream was built already: try the JVM-wide filter
        }
        if (how == Installed.NONE) {
            try {
                if (ObjectInputFilter.Config.getSerialFilter() == null) {
                    ObjectInputFilter.Config.setSerialFilter(new SerialFilterHook(null));
                    how = Installed.JVM_WIDE_FILTER;
                }
            } catch (IllegalStateException | SecurityException e) {
                // set meanwhile by someone else
            }
        }
        if (how == Installed.NONE) {
            LoggerFactory.getLogger(SerialFilterHook.class).warn("The sizes that collections read from RMI-IIOP values "
                    + "are checked only by jdk.serialFilter's own limits (maxarray=...): an ObjectInputStream was built "
                    + "before the first I-RMI ORB, or jdk.serialFilterFactory is set. Create the ORB first, or set "
                    + "maxarray in jdk.serialFilter.");
        }
        installed = how;
        return how;
    }

    static Installed installed() {
        return installed;
    }

    @Override
    public Status checkInput(FilterInfo info) {
        ValueReadScope scope = ValueReadScope.current();
        if (scope == null) {
            return next == null ? Status.UNDECIDED : next.checkInput(info);
        }
        Class<?> c = info.serialClass();
        if (c != null && c.isArray() && info.arrayLength() >= 0 && scope.allocating(c, info.arrayLength()) != null) {
            return Status.REJECTED;
        }
        if (next == null) {
            return Status.UNDECIDED;
        }
        Status s = next.checkInput(info);
        if (s == Status.REJECTED) {
            scope.refusedBySerialFilter(describe(info));
        }
        return s;
    }

    /** What the JDK asked about, for the log line. */
    static String describe(FilterInfo info) {
        Class<?> c = info.serialClass();
        if (c == null) {
            return "a value (depth " + info.depth() + ", " + info.references() + " references)";
        }
        if (c.isArray() && info.arrayLength() >= 0) {
            return c.getComponentType().getName() + "[" + info.arrayLength() + "]";
        }
        return c.getName();
    }
}
