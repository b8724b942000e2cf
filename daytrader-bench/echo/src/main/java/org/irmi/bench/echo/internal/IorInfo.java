package org.irmi.bench.echo.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * The first IIOP profile of a stringified IOR: host, port and object key. Parsed here, with no
 * ORB, so tools can point a client at a relay ({@link #corbaloc(String, int)}) or find the
 * server's port, whatever ORB wrote the IOR.
 *
 * <p>Format (CORBA 3, 13.6): {@code "IOR:"} + hex of a CDR encapsulation holding the type id and a
 * sequence of tagged profiles; TAG_INTERNET_IOP (0) profiles hold another encapsulation with the
 * IIOP version, host, port and object key.
 *
 * @param typeId     the repository id
 * @param host       the IIOP host
 * @param port       the IIOP port
 * @param objectKey  the object key
 */
public record IorInfo(String typeId, String host, int port, byte[] objectKey) {

    private static final int TAG_INTERNET_IOP = 0;

    /**
     * Parses {@code ior}.
     *
     * @throws IllegalArgumentException when it is not an IOR or has no IIOP profile
     */
    public static IorInfo parse(String ior) {
        String text = ior.trim();
        if (!text.regionMatches(true, 0, "IOR:", 0, 4)) {
            throw new IllegalArgumentException("not a stringified IOR (must start with IOR:): "
                    + text.substring(0, Math.min(20, text.length())));
        }
        byte[] bytes;
        try {
            bytes = HexFormat.of().parseHex(text.substring(4));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("IOR is not valid hex: " + e.getMessage(), e);
        }
        try {
            ByteBuffer buf = encapsulation(bytes);
            String typeId = string(buf);
            int profiles = ulong(buf);
            for (int i = 0; i < profiles; i++) {
                int tag = ulong(buf);
                byte[] data = octets(buf);
                if (tag == TAG_INTERNET_IOP) {
                    ByteBuffer body = encapsulation(data);
                    body.get();
                    body.get(); // IIOP version major, minor
                    String host = string(body);
                    align(body, 2);
                    int port = Short.toUnsignedInt(body.getShort());
                    byte[] key = octets(body);
                    return new IorInfo(typeId, host, port, key);
                }
            }
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("malformed IOR: " + e, e);
        }
        throw new IllegalArgumentException("IOR has no IIOP profile");
    }

    /**
     * This profile as a stringified IOR of its own (big-endian, IIOP 1.2, no tagged components), which
     * {@link #parse} reads back: for a client that takes an IOR file, pointed at a server that wrote none.
     */
    public String stringified() {
        ByteBuffer profile = ByteBuffer.allocate(64 + host.length() + objectKey.length).order(ByteOrder.BIG_ENDIAN);
        profile.put((byte) 0).put((byte) 1).put((byte) 2); // big-endian; IIOP 1.2
        putOctets(profile, (host + "\0").getBytes(StandardCharsets.ISO_8859_1));
        align(profile, 2);
        profile.putShort((short) port);
        putOctets(profile, objectKey);
        byte[] profileBytes = java.util.Arrays.copyOf(profile.array(), profile.position());
        ByteBuffer ior = ByteBuffer.allocate(64 + typeId.length() + profileBytes.length).order(ByteOrder.BIG_ENDIAN);
        ior.put((byte) 0);
        putOctets(ior, (typeId + "\0").getBytes(StandardCharsets.ISO_8859_1));
        align(ior, 4);
        ior.putInt(1);
        ior.putInt(TAG_INTERNET_IOP);
        putOctets(ior, profileBytes);
        return "IOR:" + HexFormat.of().formatHex(ior.array(), 0, ior.position());
    }

    private static void putOctets(ByteBuffer buf, byte[] octets) {
        align(buf, 4);
        buf.putInt(octets.length);
        buf.put(octets);
    }

    /** A {@code corbaloc} URL for this object at another address, asking for GIOP 1.2. */
    public String corbaloc(String atHost, int atPort) {
        StringBuilder sb = new StringBuilder("corbaloc:iiop:1.2@").append(atHost).append(':').append(atPort).append('/');
        for (byte b : objectKey) {
            int c = b & 0xff;
            boolean plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || ";/:?@&=+$,-_.!~*'()".indexOf(c) >= 0;
            if (plain) {
                sb.append((char) c);
            } else {
                sb.append('%').append(HexFormat.of().withUpperCase().toHexDigits((byte) c));
            }
        }
        return sb.toString();
    }

    /** A CDR encapsulation: first octet is the byte order, alignment counts from that octet. */
    private static ByteBuffer encapsulation(byte[] data) {
        ByteBuffer buf = ByteBuffer.wrap(data);
        buf.order(buf.get() == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        return buf;
    }

    private static void align(ByteBuffer buf, int boundary) {
        int rem = buf.position() % boundary;
        if (rem != 0) {
            buf.position(buf.position() + boundary - rem);
        }
    }

    private static int ulong(ByteBuffer buf) {
        align(buf, 4);
        return buf.getInt();
    }

    private static byte[] octets(ByteBuffer buf) {
        byte[] out = new byte[ulong(buf)];
        buf.get(out);
        return out;
    }

    private static String string(ByteBuffer buf) {
        byte[] withNul = octets(buf);
        int len = withNul.length > 0 && withNul[withNul.length - 1] == 0 ? withNul.length - 1 : withNul.length;
        return new String(withNul, 0, len, StandardCharsets.ISO_8859_1);
    }
}
