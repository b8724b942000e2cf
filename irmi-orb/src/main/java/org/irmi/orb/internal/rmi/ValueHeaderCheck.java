package org.irmi.orb.internal.rmi;

import org.omg.CORBA.portable.InputStream;

/**
 * Reads a value header ahead (mark/reset) and checks the one count in it that JacORB allocates
 * from: the number of repository ids in a truncatable list.
 *
 * <p>Why: JacORB allocates {@code new String[count]} as soon as it has read the count, so 8 bytes
 * of a header could make it allocate a {@code String[2^28]} (1 GiB of references) before anything
 * else is read. A list of {@code count} ids needs at least 8 bytes per id in the message (a
 * {@code long} length or indirection, and at least one more aligned {@code long}), so a count beyond
 * that is refused here, before JacORB reads it. Covers the values a tie reads as arguments;
 * values nested inside them are read by JacORB itself.
 *
 * <p>Stateless; the caller's thread.
 */
final class ValueHeaderCheck {

    private static final int VALUE_TAG_BASE = 0x7fffff00;
    private static final int CODEBASE_FLAG = 0x01;
    private static final int TYPE_INFO_MASK = 0x06;
    private static final int REPOSITORY_ID_LIST = 0x06;
    private static final int INDIRECTION = 0xffffffff;

    private ValueHeaderCheck() {
    }

    /** Null when the header at the stream's position is not a list of ids or its count fits; else why not. */
    static String repositoryIdCount(InputStream in) {
        if (!in.markSupported()) {
            return null;
        }
        in.mark(64);
        try {
            int tag = in.read_long();
            if ((tag & 0xffffff00) != VALUE_TAG_BASE || (tag & TYPE_INFO_MASK) != REPOSITORY_ID_LIST) {
                return null; // null, indirection or a value with at most one id
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
            int count = in.read_long();
            int left = in.available();
            if (count < 0 || (long) count * 8 > left) {
                return "repository id count " + count + " needs at least " + 8L * count
                        + " bytes, the message has " + left + " left";
            }
            return null;
        } catch (RuntimeException | java.io.IOException e) {
            return null; // too short to tell: JacORB's own reading fails it
        } finally {
            try {
                in.reset();
            } catch (java.io.IOException e) {
                throw new org.omg.CORBA.MARSHAL("cannot reset the stream after a value header: " + e);
            }
        }
    }
}
