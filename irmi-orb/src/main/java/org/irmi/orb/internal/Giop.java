package org.irmi.orb.internal;

/**
 * GIOP 1.0 to 1.2 message header facts and small encoders for the messages the reader thread
 * writes itself (MessageError, CloseConnection, system exception replies).
 *
 * <p>Header layout: {@code 'G' 'I' 'O' 'P'}, major, minor, flags (bit 0: little endian, bit 1:
 * more fragments follow, GIOP 1.1+), message type, body size (ulong in the flagged byte order).
 */
final class Giop {

    static final int HEADER_BYTES = 12;
    static final int REQUEST = 0;
    static final int REPLY = 1;
    static final int CANCEL_REQUEST = 2;
    static final int LOCATE_REQUEST = 3;
    static final int LOCATE_REPLY = 4;
    static final int CLOSE_CONNECTION = 5;
    static final int MESSAGE_ERROR = 6;
    static final int FRAGMENT = 7;

    private static final int REPLY_SYSTEM_EXCEPTION = 2;
    private static final int REPLY_LOCATION_FORWARD = 3;

    /** Verdict on a 12-byte header. */
    enum HeaderCheck { OK, BAD_MAGIC, BAD_VERSION, TOO_LARGE }

    private Giop() {
    }

    static HeaderCheck check(byte[] h, long maxMessageBytes) {
        if (h[0] != 'G' || h[1] != 'I' || h[2] != 'O' || h[3] != 'P') {
            return HeaderCheck.BAD_MAGIC;
        }
        if (h[4] != 1 || h[5] < 0 || h[5] > 2) {
            return HeaderCheck.BAD_VERSION;
        }
        if (bodySize(h) + HEADER_BYTES > maxMessageBytes) {
            return HeaderCheck.TOO_LARGE;
        }
        return HeaderCheck.OK;
    }

    static boolean littleEndian(byte[] m) {
        return (m[6] & 1) != 0;
    }

    static boolean moreFragments(byte[] m) {
        return m[5] >= 1 && (m[6] & 2) != 0;
    }

    static int minor(byte[] m) {
        return m[5];
    }

    static int type(byte[] m) {
        return m[7];
    }

    /** Declared body size as an unsigned 32-bit value. */
    static long bodySize(byte[] h) {
        return readUInt(h, 8, littleEndian(h));
    }

    /**
     * The request id of the Reply or LocateReply whose first bytes are {@code b[offset, offset +
     * length)}, or -1 when they are not one or do not reach the id. For GIOP 1.0 and 1.1 Replies
     * the service contexts before the id are skipped, each length checked against the bytes there.
     */
    static int replyRequestId(byte[] b, int offset, int length) {
        if (length < HEADER_BYTES + 4 || b[offset] != 'G' || b[offset + 1] != 'I' || b[offset + 2] != 'O'
                || b[offset + 3] != 'P') {
            return -1;
        }
        int type = b[offset + 7];
        int minor = b[offset + 5];
        boolean little = (b[offset + 6] & 1) != 0;
        if (type == LOCATE_REPLY || (type == REPLY && minor >= 2)) {
            return (int) readUInt(b, offset + HEADER_BYTES, little);
        }
        if (type != REPLY) {
            return -1;
        }
        int at = HEADER_BYTES; // relative to the message start, as CDR alignment is
        long contexts = readUInt(b, offset + at, little);
        at += 4;
        for (long i = 0; i < contexts; i++) {
            at = (at + 3) & ~3;
            if (at + 8 > length) {
                return -1;
            }
            long dataLength = readUInt(b, offset + at + 4, little);
            if (dataLength > length - at - 8) {
                return -1;
            }
            at += 8 + (int) dataLength;
        }
        at = (at + 3) & ~3;
        return at + 4 > length ? -1 : (int) readUInt(b, offset + at, little);
    }

    static long readUInt(byte[] b, int at, boolean little) {
        long v;
        if (little) {
            v = (b[at] & 0xffL) | (b[at + 1] & 0xffL) << 8 | (b[at + 2] & 0xffL) << 16 | (b[at + 3] & 0xffL) << 24;
        } else {
            v = (b[at] & 0xffL) << 24 | (b[at + 1] & 0xffL) << 16 | (b[at + 2] & 0xffL) << 8 | (b[at + 3] & 0xffL);
        }
        return v;
    }

    static void writeInt(byte[] b, int at, int v, boolean little) {
        if (little) {
            b[at] = (byte) v;
            b[at + 1] = (byte) (v >>> 8);
            b[at + 2] = (byte) (v >>> 16);
            b[at + 3] = (byte) (v >>> 24);
        } else {
            b[at] = (byte) (v >>> 24);
            b[at + 1] = (byte) (v >>> 16);
            b[at + 2] = (byte) (v >>> 8);
            b[at + 3] = (byte) v;
        }
    }

    /** A body-less message of the given type (MessageError, CloseConnection). */
    static byte[] emptyMessage(int type, int minor) {
        return new byte[] {'G', 'I', 'O', 'P', 1, (byte) minor, 0, (byte) type, 0, 0, 0, 0};
    }

    /** A big-endian Reply with status LOCATION_FORWARD whose body is {@code ior}. */
    static byte[] locationForwardReply(int minor, int requestId, org.omg.IOP.IOR ior, int[] contextIds,
                                       byte[][] contextData) {
        CdrWriter w = new CdrWriter(256);
        w.header(REPLY, minor);
        if (minor == 2) {
            w.writeULong(requestId);
            w.writeULong(REPLY_LOCATION_FORWARD);
            w.writeContexts(contextIds, contextData);
            w.alignBody8();
        } else {
            w.writeContexts(contextIds, contextData);
            w.writeULong(requestId);
            w.writeULong(REPLY_LOCATION_FORWARD);
        }
        w.writeString(ior.type_id);
        w.writeULong(ior.profiles.length);
        for (org.omg.IOP.TaggedProfile p : ior.profiles) {
            w.writeULong(p.tag);
            w.writeOctets(p.profile_data);
        }
        return w.finish();
    }

    /**
     * A big-endian Reply with status SYSTEM_EXCEPTION for {@code requestId}.
     *
     * @param contexts service contexts as alternating id/data pairs, may be empty
     */
    static byte[] systemExceptionReply(int minor, int requestId, String repositoryId, int minorCode,
                                       int completion, int[] contextIds, byte[][] contextData) {
        CdrWriter w = new CdrWriter(128);
        w.header(REPLY, minor);
        if (minor == 2) {
            w.writeULong(requestId);
            w.writeULong(REPLY_SYSTEM_EXCEPTION);
            w.writeContexts(contextIds, contextData);
            w.alignBody8();
        } else {
            w.writeContexts(contextIds, contextData);
            w.writeULong(requestId);
            w.writeULong(REPLY_SYSTEM_EXCEPTION);
        }
        w.writeString(repositoryId);
        w.writeULong(minorCode);
        w.writeULong(completion);
        return w.finish();
    }
}
