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
 *       allocation from 12 bytes. A string needs at least its declared length in the message. A
 *       boxed string's length is read where JacORB reads it: after a chunk size when the box is
 *       chunked or nested in a chunked value ({@link JacorbValueNesting}; refused when JacORB's
 *       nesting level cannot be read), and a box whose first chunk is empty is refused (JacORB
 *       would read its length past the next chunk boundary).</li>
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
        return check(in, expected, JacorbValueNesting.JACORB);
    }

    /** As {@link #check}, with JacORB's nesting level read by {@code nesting}. */
    static String check(InputStream in, Class<?> expected, JacorbValueNesting nesting) {
        if (!in.markSupported()) {
            return null;
        }
        in.mark(LONGEST_ID_READ + 64);
        try {
            return header(in, expected, nesting);
        } finally {
            reset(in);
        }
    }

    /**
     * As {@link #check}, from the stream's position, without mark and reset (the caller holds the
     * stream's one mark): the stream is left somewhere inside the header.
     */
    static String header(InputStream in, Class<?> expected) {
        return header(in, expected, JacorbValueNesting.JACORB);
    }

    private static String header(InputStream in, Class<?> expected, JacorbValueNesting nesting) {
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
            boolean chunkSize = (tag & CHUNKED_FLAG) != 0;
            if (!chunkSize) {
                // nested in a chunked value, JacORB reads a chunk size anyway (JacorbValueNesting)
                JacorbValueNesting.ChunkSize jacorb = nesting.chunkSizeBeforeState(in);
                if (jacorb == JacorbValueNesting.ChunkSize.UNKNOWN) {
                    return "where JacORB reads this string's length is not known: "
                            + java.util.Objects.requireNonNullElse(nesting.unavailable(), "reading JacORB's value nesting level failed");
                }
                chunkSize = jacorb == JacorbValueNesting.ChunkSize.READ;
            }
            if (chunkSize && in.read_long() == 0) {
                // JacORB ends an empty chunk at once and reads the next long as a chunk boundary
                // (another chunk's size, or an end tag): the length it reads is further on. No
                // writer starts a string's state with an empty chunk
                return "a string's state starts with an empty chunk";
            }
            return stringLength(in.read_long(), in.available());
        } catch (RuntimeException | java.io.IOException e) {
            return null; // too short to tell: JacORB's own reading fails it
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
