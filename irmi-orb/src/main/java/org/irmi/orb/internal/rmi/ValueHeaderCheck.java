package org.irmi.orb.internal.rmi;

import org.omg.CORBA.portable.InputStream;

/**
 * Reads ahead (mark/reset) the counts and lengths that JacORB allocates from before it has the
 * bytes, and checks each against the bytes left in the message:
 * <ul>
 *   <li>the number of repository ids in a value header's truncatable list: JacORB allocates
 *       {@code new String[count]} as soon as it has read the count, so 8 bytes of a header could
 *       make it allocate a {@code String[2^28]} (1 GiB of references). A list of {@code count} ids
 *       needs at least 8 bytes per id (a {@code long} length or indirection, and at least one more
 *       aligned {@code long});</li>
 *   <li>the length of a string or wide string, read on its own or boxed in a value (a Java
 *       {@code String} argument is a {@code CORBA::WStringValue}): JacORB allocates the characters at
 *       the declared length ({@code CodeSet.readGiop12WString}), found by fuzzing as a 2 GiB
 *       allocation from 12 bytes. A string needs at least its declared length in the message.</li>
 * </ul>
 * A value whose repository id is given by indirection is checked as a string only where the
 * reader expects a {@code String}.
 *
 * <p>Stateless; the caller's thread.
 */
final class ValueHeaderCheck {

    private static final int VALUE_TAG_BASE = 0x7fffff00;
    private static final int CODEBASE_FLAG = 0x01;
    private static final int TYPE_INFO_MASK = 0x06;
    private static final int SINGLE_REPOSITORY_ID = 0x02;
    private static final int REPOSITORY_ID_LIST = 0x06;
    private static final int CHUNKED_FLAG = 0x08;
    private static final int INDIRECTION = 0xffffffff;
    private static final String WSTRING_VALUE = "IDL:omg.org/CORBA/WStringValue:1.0";
    private static final String STRING_VALUE = "IDL:omg.org/CORBA/StringValue:1.0";
    private static final int LONGEST_ID_READ = 256;

    private ValueHeaderCheck() {
    }

    /**
     * Null when the value at the stream's position may be read; else why not.
     *
     * @param expected the class the reader expects, or null when it does not say
     */
    static String check(InputStream in, Class<?> expected) {
        if (!in.markSupported()) {
            return null;
        }
        in.mark(LONGEST_ID_READ + 64);
        try {
            return header(in, expected);
        } finally {
            reset(in);
        }
    }

    /**
     * As {@link #check}, from the stream's position, without mark and reset (the caller holds the
     * stream's one mark): the stream is left somewhere inside the header.
     */
    static String header(InputStream in, Class<?> expected) {
        try {
            int tag = in.read_long();
            if ((tag & 0xffffff00) != VALUE_TAG_BASE) {
                return null; // null or an indirection to a value already read
            }
            if ((tag & CODEBASE_FLAG) != 0) {
                int length = in.read_long();
                if (length == INDIRECTION) {
                    in.read_long();
                } else if (length < 0 || length > in.available()) {
                    return "codebase length " + length + " exceeds the message";
                } else {
                    byte[] skip = new byte[Math.min(length, 4096)];
                    for (int left = length; left > 0; left -= skip.length) {
                        in.read_octet_array(skip, 0, Math.min(skip.length, left));
                    }
                }
            }
            boolean stringBox = expected == String.class;
            int typeInfo = tag & TYPE_INFO_MASK;
            if (typeInfo == REPOSITORY_ID_LIST) {
                int count = in.read_long();
                int left = in.available();
                if (count < 0 || (long) count * 8 > left) {
                    return "repository id count " + count + " needs at least " + 8L * count
                            + " bytes, the message has " + left + " left";
                }
                return null;
            }
            if (typeInfo == SINGLE_REPOSITORY_ID) {
                int length = in.read_long();
                if (length == INDIRECTION) {
                    in.read_long();
                } else if (length < 0 || length > in.available()) {
                    return "repository id length " + length + " exceeds the message";
                } else if (length > LONGEST_ID_READ) {
                    return null; // not one of the string boxes: JacORB reads it from the bytes there
                } else {
                    byte[] id = new byte[length];
                    in.read_octet_array(id, 0, length);
                    String name = new String(id, 0, Math.max(0, length - 1), java.nio.charset.StandardCharsets.ISO_8859_1);
                    stringBox |= WSTRING_VALUE.equals(name) || STRING_VALUE.equals(name);
                }
            }
            if (!stringBox) {
                return null;
            }
            if ((tag & CHUNKED_FLAG) != 0 || insideChunkedValue(in)) {
                in.read_long(); // the chunk's size; the string follows
            }
            return stringLength(in.read_long(), in.available());
        } catch (RuntimeException | java.io.IOException e) {
            return null; // too short to tell: JacORB's own reading fails it
        }
    }

    private static final java.lang.reflect.Field NESTING = jacorbField("valueNestingLevel");
    private static final java.lang.reflect.Field SUN_INTEROP_FIX = jacorbField("sunInteropFix");

    /**
     * Whether JacORB reads a chunk size before a value's state although the value's tag says it is
     * not chunked: it does inside a chunked value ({@code CDRInputStream.read_untyped_value}: its
     * private {@code valueNestingLevel} above 0, unless {@code sunInteropFix}), as CORBA requires
     * values nested in a chunked value to be chunked. Found by fuzzing: a string box nested in a
     * chunked value had its length read 4 bytes later than checked. Read, never written.
     */
    private static boolean insideChunkedValue(InputStream in) {
        if (NESTING == null || SUN_INTEROP_FIX == null || !(in instanceof org.jacorb.orb.CDRInputStream)) {
            return false;
        }
        try {
            return NESTING.getInt(in) > 0 && !SUN_INTEROP_FIX.getBoolean(in);
        } catch (IllegalAccessException e) {
            return false;
        }
    }

    private static java.lang.reflect.Field jacorbField(String name) {
        try {
            java.lang.reflect.Field f = org.jacorb.orb.CDRInputStream.class.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** Null when the string or wide string at the stream's position fits in the message; else why not. */
    static String string(InputStream in) {
        if (!in.markSupported()) {
            return null;
        }
        in.mark(8);
        try {
            return stringLength(in.read_long(), in.available());
        } catch (RuntimeException | java.io.IOException e) {
            return null;
        } finally {
            reset(in);
        }
    }

    /**
     * A string's length field: octets (GIOP 1.2 wide strings, narrow strings with their NUL) or
     * characters of at least one octet each (GIOP 1.0/1.1 wide strings); either way at most what
     * is left.
     */
    private static String stringLength(int length, int left) {
        if (length < 0 || length > left) {
            return "string length " + Integer.toUnsignedString(length) + " exceeds the " + left
                    + " bytes left in the message";
        }
        return null;
    }

    private static void reset(InputStream in) {
        try {
            in.reset();
        } catch (java.io.IOException e) {
            throw new org.omg.CORBA.MARSHAL("cannot reset the stream after a value header: " + e);
        }
    }
}
