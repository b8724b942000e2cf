package org.irmi.orb.internal.rmi;

import java.lang.reflect.Field;

import org.omg.CORBA.portable.InputStream;
import org.slf4j.LoggerFactory;

/**
 * Whether JacORB reads a chunk size before the state of a value whose tag does not say it is
 * chunked: the one fact {@link ValueHeaderCheck} needs from JacORB that JacORB does not show.
 *
 * <p>JacORB's rule ({@code CDRInputStream.read_untyped_value}, JacORB 3.9): it reads a chunk size
 * when the value's tag says chunked, or when the value is nested in a chunked one (CORBA requires
 * values nested in a chunked value to be chunked) unless {@code jacorb.interop.sun} is set. "Nested
 * in a chunked one" is JacORB's private {@code valueNestingLevel} above 0. Found by fuzzing: a string
 * box nested in a chunked value had its length read 4 bytes later than it was checked.
 *
 * <p>Why a private field, read by reflection: no public method of JacORB's {@code CDRInputStream}
 * returns the nesting level. {@code start_value()} applies the same rule, but it parses only a
 * header with one repository id and no codebase, and the String arguments of JacORB's stubs are
 * written without type information ({@code write_value(s, String.class)}). Counting chunked values
 * as {@link FilteredArgumentStream} reads them is not the same either: JacORB's level goes down at
 * each end tag in the stream ({@code level = -tag - 1}), which the client writes; a missing or early
 * end tag would move the length JacORB reads 4 bytes away from the one checked. The field is read,
 * never written; {@code jacorb.interop.sun} is read from the stream's ORB configuration, as JacORB
 * reads it.
 *
 * <p>Fail closed: when the field is not there or cannot be read (a JacORB other than the one
 * I-RMI was built for), the answer is {@link ChunkSize#UNKNOWN}, which {@link ValueHeaderCheck}
 * refuses, and one ERROR line says why when the class is first used.
 * {@code JacorbValueNestingTest} pins the field on the JacORB of the build.
 *
 * <p>THREADS: any thread; immutable.
 */
final class JacorbValueNesting {

    /**
     * The JacORB this class was compiled against (a compile-time constant, so the build's JacORB
     * version, whatever JacORB is found at run time).
     */
    static final String BUILT_FOR = org.jacorb.util.Version.version;

    /** JacORB's field, on the JacORB of the build; logs one ERROR line when it is missing. */
    static final JacorbValueNesting JACORB = logged(new JacorbValueNesting("valueNestingLevel"));

    private static final String SUN_INTEROP = "jacorb.interop.sun";

    /** Whether JacORB reads a chunk size before a value's state (its tag not saying chunked). */
    enum ChunkSize {
        /** Inside a chunked value: a chunk size comes first. */
        READ,
        /** Outside any chunked value, or {@code jacorb.interop.sun}: the state comes first. */
        NOT_READ,
        /** JacORB's nesting level cannot be read: where the state starts is not known. */
        UNKNOWN
    }

    private final Field nesting;
    private final String unavailable;

    /** Reads JacORB's nesting level from {@code CDRInputStream}'s int field {@code fieldName}. */
    JacorbValueNesting(String fieldName) {
        Field f = null;
        String why = null;
        try {
            f = org.jacorb.orb.CDRInputStream.class.getDeclaredField(fieldName);
            if (f.getType() != int.class) {
                why = "is a " + f.getType().getName() + ", not an int";
                f = null;
            } else {
                f.setAccessible(true);
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            why = "cannot be read (" + e + ")";
            f = null;
        }
        this.nesting = f;
        this.unavailable = why == null ? null
                : "org.jacorb.orb.CDRInputStream." + fieldName + " " + why + " on JacORB " + runtimeVersion()
                        + "; I-RMI was built for JacORB " + BUILT_FOR;
    }

    private static JacorbValueNesting logged(JacorbValueNesting n) {
        if (n.unavailable != null) {
            LoggerFactory.getLogger(JacorbValueNesting.class).error("The RMI-IIOP value filter cannot tell where JacORB "
                    + "reads a string value's length: {}. Until I-RMI runs on the JacORB it was built for, it refuses "
                    + "string values whose tag is not chunked (MARSHAL VALUE_REFUSED, kind header).", n.unavailable);
        }
        return n;
    }

    private static String runtimeVersion() {
        String v = org.jacorb.orb.CDRInputStream.class.getPackage().getImplementationVersion();
        return v == null ? "(version unknown)" : v;
    }

    /** Why the nesting level cannot be read, or null when it can. */
    String unavailable() {
        return unavailable;
    }

    /**
     * Whether JacORB, reading from {@code in} now, reads a chunk size before the state of a value
     * whose tag does not say chunked. A stream that is not JacORB's: {@link ChunkSize#NOT_READ}
     * (JacORB's rule is not the one it reads by).
     */
    ChunkSize chunkSizeBeforeState(InputStream in) {
        if (!(in instanceof org.jacorb.orb.CDRInputStream)) {
            return ChunkSize.NOT_READ;
        }
        if (nesting == null) {
            return ChunkSize.UNKNOWN;
        }
        int level;
        try {
            level = nesting.getInt(in);
        } catch (IllegalAccessException | RuntimeException e) {
            return ChunkSize.UNKNOWN;
        }
        if (level <= 0) {
            return ChunkSize.NOT_READ;
        }
        return sunInterop(in.orb()) ? ChunkSize.NOT_READ : ChunkSize.READ;
    }

    /** {@code jacorb.interop.sun} of the ORB that configured the stream (JacORB reads it there, once per stream). */
    private static boolean sunInterop(org.omg.CORBA.ORB orb) {
        if (orb instanceof org.jacorb.orb.ORBSingleton j) {
            return j.getConfiguration().getAttributeAsBoolean(SUN_INTEROP, false);
        }
        return false;
    }
}
