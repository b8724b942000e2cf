package org.irmi.orb.internal.rmi;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.irmi.orb.internal.BadInputLog;
import org.slf4j.LoggerFactory;

/**
 * Where the {@link ValueFilter}s come from: one per ORB, built from the ORB property
 * {@value #PROPERTY} (and {@code jdk.serialFilter}), all sharing the classes reachable from the
 * Remote objects exported in this JVM. Also counts and logs (rate-limited) what was refused.
 *
 * <p>Why static: RMI-IIOP's {@code Util} delegate and ties are JVM-wide, while the filter string is
 * an ORB property; exported types are registered at export time, before any ORB is known.
 *
 * <p>THREADS: any thread.
 */
public final class ValueFilters {

    /** The ORB property holding the filter string (syntax of {@code jdk.serialFilter}). */
    public static final String PROPERTY = "irmi.rmi.value_filter";

    private static final Set<String> EXPORTED = ConcurrentHashMap.newKeySet();
    private static final Map<org.omg.CORBA.ORB, ValueFilter> BY_ORB = Collections.synchronizedMap(new WeakHashMap<>());
    private static final AtomicLong REFUSED = new AtomicLong();
    private static final BadInputLog LOG = new BadInputLog(LoggerFactory.getLogger(ValueFilters.class));

    private ValueFilters() {
    }

    /** Registers the value classes reachable from the Remote interfaces of an exported object. */
    static void exported(Class<?> remoteClass) {
        EXPORTED.addAll(ReachableTypes.of(remoteClass));
    }

    /** The filter of {@code orb} (built once from its configuration). */
    static ValueFilter forOrb(org.omg.CORBA.ORB orb) {
        return BY_ORB.computeIfAbsent(orb, o -> new ValueFilter(jdkSerialFilter(), property(o), EXPORTED));
    }

    private static String property(org.omg.CORBA.ORB orb) {
        if (orb instanceof org.jacorb.orb.ORB j) {
            return j.getConfiguration().getAttribute(PROPERTY, System.getProperty(PROPERTY));
        }
        return System.getProperty(PROPERTY);
    }

    private static String jdkSerialFilter() {
        String f = System.getProperty("jdk.serialFilter");
        return f != null ? f : java.security.Security.getProperty("jdk.serialFilter");
    }

    /** A value was refused: counted, and logged at most once a second, without a stack trace. */
    static void refused(String what, String why) {
        REFUSED.incrementAndGet();
        LOG.note("RMI-IIOP value refused: {} ({})", what, why);
    }

    /** Values and classes refused since the JVM started. */
    public static long refusedCount() {
        return REFUSED.get();
    }
}
