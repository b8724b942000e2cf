package org.irmi.orb.internal;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads the header of a GIOP Request (1.0, 1.1, 1.2) from a complete message: request id,
 * response flag, object key, operation, service contexts and where the arguments begin.
 * Alignment is relative to the start of the message, as GIOP defines it. Every length is
 * checked against the message, so malformed input ends in {@link Malformed}, never in an
 * allocation the message did not pay for.
 */
final class RequestParser {

    /** The request header fields the reader thread needs. */
    record Parsed(int requestId, boolean responseExpected, byte[] objectKey, String operation,
                  Map<Integer, byte[]> serviceContexts, int bodyOffset) {
    }

    /** Thrown for a message whose header does not fit its declared size. */
    static final class Malformed extends RuntimeException {
        Malformed(String message) {
            super(message, null, false, false);
        }
    }

    private static final byte[] NO_KEY = new byte[0];

    private final byte[] m;
    private final boolean little;
    private int pos;

    private RequestParser(byte[] m) {
        this(m, Giop.littleEndian(m), Giop.HEADER_BYTES);
    }

    /** A parser of {@code m} from {@code pos}; alignment counts from {@code m}'s first byte. */
    private RequestParser(byte[] m, boolean little, int pos) {
        this.m = m;
        this.little = little;
        this.pos = pos;
    }

    static Parsed parse(byte[] message) {
        return new RequestParser(message).request(Giop.minor(message));
    }

    /** The request id of a message whose body starts with it (1.2 Request, Fragment, any CancelRequest). */
    static int leadingRequestId(byte[] message) {
        if (message.length < Giop.HEADER_BYTES + 4) {
            throw new Malformed("message too short for a request id");
        }
        return (int) Giop.readUInt(message, Giop.HEADER_BYTES, Giop.littleEndian(message));
    }

    private Parsed request(int minor) {
        int requestId;
        boolean response;
        byte[] key;
        String op;
        Map<Integer, byte[]> contexts;
        if (minor == 2) {
            requestId = (int) ulong();
            int flags = octet();
            response = (flags & 0x03) != 0;
            skip(3);
            key = target();
            op = string();
            contexts = contexts();
            if (pos < m.length) {
                align(8);
            }
        } else {
            contexts = contexts();
            requestId = (int) ulong();
            response = octet() != 0;
            if (minor == 1) {
                skip(3);
            }
            key = octets();
            op = string();
            octets(); // principal
        }
        return new Parsed(requestId, response, key, op, contexts, Math.min(pos, m.length));
    }

    private byte[] target() {
        int disposition = ushort();
        switch (disposition) {
            case 0:
                return octets();
            case 1: { // ProfileAddr: the key inside the tagged profile, as JacORB dispatches it
                long tag = ulong();
                return profileKey(tag, octets());
            }
            case 2: { // ReferenceAddr: the key of the selected profile of the IOR
                long selected = ulong();
                string(); // type id
                long profiles = ulong();
                if (profiles > (m.length - pos) / 8) {
                    throw new Malformed("profile count " + profiles + " exceeds the message");
                }
                byte[] key = NO_KEY;
                for (long i = 0; i < profiles; i++) {
                    long tag = ulong();
                    byte[] data = octets();
                    if (i == selected) {
                        key = profileKey(tag, data);
                    }
                }
                return key;
            }
            default:
                throw new Malformed("unknown target address disposition " + disposition);
        }
    }

    /**
     * The object key inside an IIOP profile body (TAG_INTERNET_IOP), an encapsulation: byte order,
     * version, host, port, object key. Other profile tags name no key JacORB could dispatch to.
     */
    static byte[] profileKey(long tag, byte[] body) {
        if (tag != 0) {
            return NO_KEY;
        }
        if (body.length < 1) {
            throw new Malformed("empty IIOP profile");
        }
        RequestParser p = new RequestParser(body, body[0] != 0, 1);
        p.skip(2); // IIOP version
        p.string(); // host
        p.ushort(); // port
        return p.octets();
    }

    private Map<Integer, byte[]> contexts() {
        long n = ulong();
        if (n == 0) {
            return Collections.emptyMap();
        }
        if (n > (m.length - pos) / 8) {
            throw new Malformed("service context count " + n + " exceeds the message");
        }
        Map<Integer, byte[]> out = new HashMap<>((int) n * 2);
        for (long i = 0; i < n; i++) {
            int id = (int) ulong();
            out.put(id, octets());
        }
        return Collections.unmodifiableMap(out);
    }

    private void align(int n) {
        int pad = (n - (pos % n)) % n;
        pos += pad;
        if (pos > m.length) {
            throw new Malformed("alignment past the end of the message");
        }
    }

    private void need(long n) {
        if (n < 0 || pos + n > m.length) {
            throw new Malformed("field of " + n + " bytes at " + pos + " exceeds the message of " + m.length);
        }
    }

    private void skip(int n) {
        need(n);
        pos += n;
    }

    private int octet() {
        need(1);
        return m[pos++] & 0xff;
    }

    private int ushort() {
        align(2);
        need(2);
        int v = little ? (m[pos] & 0xff) | (m[pos + 1] & 0xff) << 8 : (m[pos] & 0xff) << 8 | (m[pos + 1] & 0xff);
        pos += 2;
        return v;
    }

    private long ulong() {
        align(4);
        need(4);
        long v = Giop.readUInt(m, pos, little);
        pos += 4;
        return v;
    }

    private byte[] octets() {
        long n = ulong();
        need(n);
        byte[] b = new byte[(int) n];
        System.arraycopy(m, pos, b, 0, (int) n);
        pos += (int) n;
        return b;
    }

    private void skipOctets() {
        long n = ulong();
        need(n);
        pos += (int) n;
    }

    private String string() {
        long n = ulong();
        need(n);
        if (n == 0) {
            return "";
        }
        String s = new String(m, pos, (int) n - 1, StandardCharsets.ISO_8859_1);
        pos += (int) n;
        return s;
    }
}
