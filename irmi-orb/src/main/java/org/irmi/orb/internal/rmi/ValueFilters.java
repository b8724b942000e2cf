package org.irmi.orb.internal.rmi;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.EnumMap;
import java.util.concurrent.atomic.LongAdder;

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
    private static final EnumMap<ValueRefusal, LongAdder> REFUSED = new EnumMap<>(ValueRefusal.class);
    private static final EnumMap<ValueRefusal, BadInputLog> LOGS = new EnumMap<>(ValueRefusal.class);

    static {
        for (ValueRefusal kind : ValueRefusal.values()) {
            REFUSED.put(kind, new LongAdder());
            LOGS.put(kind, new BadInputLog(LoggerFactory.getLogger(ValueFilters.class)));
        }
        SerialFilterHook.install();
    }

    private ValueFilters() {
    }

    /** Registers the value classes reachable from the Remote interfaces of an exported object. */
    static void exported(Class<?> remoteClass) {
        EXPORTED.addAll(ReachableTypes.of(remoteClass));
    }

    /** The filter of {@code orb} (built once from its configuration). */
    static ValueFilter forOrb(org.omg.CORBA.ORB orb) {
        return BY_ORB.computeIfAbsent(orb, o -> new ValueFilter(jdkSerialFilter(), property(o), EXPORTED,
                freeInboundBytes(o)));
    }

    /**
     * What the inbound memory budget of {@code orb}'s transport has free now; without an I-RMI
     * transport (JacORB's own ORB class), a quarter of the heap that is free.
     */
    private static java.util.function.LongSupplier freeInboundBytes(org.omg.CORBA.ORB orb) {
        java.util.Optional<org.irmi.orb.IrmiTransport> t = org.irmi.orb.IrmiORB.of(orb).flatMap(org.irmi.orb.IrmiORB::transport);
        if (t.isPresent()) {
            org.irmi.orb.IrmiTransport transport = t.get();
            return () -> {
                org.irmi.orb.TransportStats s = transport.stats();
                return s.inboundLimitBytes() - s.inboundHeldBytes();
            };
        }
        return () -> {
            Runtime r = Runtime.getRuntime();
            return (r.maxMemory() - r.totalMemory() + r.freeMemory()) / 4;
        };
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

    /**
     * A value was refused: counted by kind, and logged at most one line per kind a second, without
     * a stack trace (the client chooses how often this happens).
     */
    static void refused(ValueRefusal kind, String what, String why) {
        REFUSED.get(kind).increment();
        LOGS.get(kind).note("RMI-IIOP value refused ({}): {} ({})", kind.tag(), what, why);
    }

    /**
     * The answer to a refused value: {@code MARSHAL} with I-RMI's {@code VALUE_REFUSED} minor code,
     * completed NO (the servant never ran), and no stack trace (nothing of the server's to show a
     * client, and nothing worth a log line per request).
     */
    static org.omg.CORBA.MARSHAL marshal(ValueRefusal kind, String what, String why) {
        org.omg.CORBA.MARSHAL m = new org.omg.CORBA.MARSHAL("I-RMI value filter refused " + what + " (" + kind.tag()
                + "): " + why, org.irmi.isolation.MinorCodes.VALUE_REFUSED, org.omg.CORBA.CompletionStatus.COMPLETED_NO);
        m.setStackTrace(new StackTraceElement[0]);
        return m;
    }

    /** Values and classes refused since the JVM started, all kinds. */
    public static long refusedCount() {
        long n = 0;
        for (LongAdder a : REFUSED.values()) {
            n += a.sum();
        }
        return n;
    }

    /** Values refused for {@code kind} since the JVM started. */
    public static long refusedCount(ValueRefusal kind) {
        return REFUSED.get(kind).sum();
    }
}
