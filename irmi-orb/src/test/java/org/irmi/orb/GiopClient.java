package org.irmi.orb;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

import org.omg.CORBA.portable.ObjectImpl;

/**
 * A hand-written GIOP 1.2 (and 1.1) client over a plain socket, for tests that need exact control
 * of the bytes: bad input, fragments, many connections. Big-endian.
 */
final class GiopClient implements AutoCloseable {

    final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;

    GiopClient(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        socket.setSoTimeout(5000);
        socket.setTcpNoDelay(true);
        out = socket.getOutputStream();
        in = new DataInputStream(socket.getInputStream());
    }

    static byte[] objectKey(org.omg.CORBA.Object ref) {
        return ((org.jacorb.orb.Delegate) ((ObjectImpl) ref)._get_delegate()).getObjectKey();
    }

    void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** A complete GIOP 1.2 Request; body is the marshalled arguments (aligned at 8 by this method). */
    static byte[] request12(int requestId, byte[] key, String op, byte[] args, boolean response) {
        return request12(requestId, key, op, args, response, new byte[4]);
    }

    /**
     * A complete GIOP 1.2 Request carrying {@code contexts}: a marshalled service-context sequence, its
     * count first (see {@link #codeSetsContext}).
     */
    static byte[] request12(int requestId, byte[] key, String op, byte[] args, boolean response, byte[] contexts) {
        Cdr c = new Cdr();
        c.header(0, 2, 0);
        c.ulong(requestId);
        c.octet(response ? 3 : 0);
        c.octet(0);
        c.octet(0);
        c.octet(0);
        c.ushort(0);
        c.octets(key);
        c.string(op);
        c.align(4);
        c.raw(contexts);
        if (args.length > 0) {
            c.align(8);
            c.raw(args);
        }
        return c.finish();
    }

    /**
     * A service-context sequence of one {@code CodeSets} context (IOP id 1) naming {@code charData} and
     * {@code wcharData}: what a client sends to negotiate its connection's code sets.
     */
    static byte[] codeSetsContext(int charData, int wcharData) {
        Cdr encapsulation = new Cdr();
        encapsulation.octet(0); // big-endian
        encapsulation.ulong(charData);
        encapsulation.ulong(wcharData);
        byte[] data = encapsulation.bytes();
        Cdr c = new Cdr();
        c.ulong(1);
        c.ulong(org.omg.IOP.TAG_CODE_SETS.value);
        c.ulong(data.length);
        c.raw(data);
        return c.bytes();
    }

    /** {@code count} two-way GIOP 1.2 Requests, ids 1 to {@code count}, back to back: a pipelining client's one write. */
    static byte[] pipelined(int count, byte[] key, String op, byte[] args) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (int id = 1; id <= count; id++) {
            all.writeBytes(request12(id, key, op, args, true));
        }
        return all.toByteArray();
    }

    /** Arguments of {@code echoString(s)} as they follow an 8-aligned GIOP 1.2 request header. */
    static byte[] stringArg(String s) {
        Cdr c = new Cdr(0);
        c.string(s);
        return c.bytes();
    }

    /** Arguments of {@code echoBytes(b)}. */
    static byte[] bytesArg(byte[] b) {
        Cdr c = new Cdr(0);
        c.octets(b);
        return c.bytes();
    }

    /** Splits a GIOP 1.2 message into a first message and Fragments carrying {@code chunk} body bytes each. */
    static byte[][] fragment12(byte[] message, int requestId, int chunk) {
        int bodyLen = message.length - 12;
        java.util.List<byte[]> parts = new java.util.ArrayList<>();
        int firstBody = Math.min(chunk, bodyLen);
        boolean more = firstBody < bodyLen;
        byte[] first = new byte[12 + firstBody];
        System.arraycopy(message, 0, first, 0, 12 + firstBody);
        first[6] = (byte) (more ? 2 : 0);
        setSize(first, firstBody);
        parts.add(first);
        int at = 12 + firstBody;
        while (at < message.length) {
            int n = Math.min(chunk, message.length - at);
            boolean moreAfter = at + n < message.length;
            Cdr c = new Cdr();
            c.header(7, 2, moreAfter ? 2 : 0);
            c.ulong(requestId);
            byte[] head = c.finish();
            byte[] frag = new byte[head.length + n];
            System.arraycopy(head, 0, frag, 0, head.length);
            System.arraycopy(message, at, frag, head.length, n);
            setSize(frag, frag.length - 12);
            parts.add(frag);
            at += n;
        }
        return parts.toArray(new byte[0][]);
    }

    private static void setSize(byte[] m, int size) {
        m[8] = (byte) (size >>> 24);
        m[9] = (byte) (size >>> 16);
        m[10] = (byte) (size >>> 8);
        m[11] = (byte) size;
    }

    /** Reads one GIOP message; throws EOFException when the server closed the connection. */
    byte[] readMessage() throws IOException {
        byte[] h = new byte[12];
        in.readFully(h);
        boolean little = (h[6] & 1) != 0;
        int size = little ? (h[8] & 0xff) | (h[9] & 0xff) << 8 | (h[10] & 0xff) << 16 | (h[11] & 0xff) << 24
                : (h[8] & 0xff) << 24 | (h[9] & 0xff) << 16 | (h[10] & 0xff) << 8 | (h[11] & 0xff);
        byte[] m = new byte[12 + size];
        System.arraycopy(h, 0, m, 0, 12);
        in.readFully(m, 12, size);
        return m;
    }

    /**
     * True when the server answered with a MessageError and/or closed the connection within the
     * socket timeout (any other message first means false).
     */
    boolean refused() throws IOException {
        try {
            byte[] m = readMessage();
            if (m[7] != 6) {
                return false;
            }
            try {
                in.readByte();
                return false;
            } catch (EOFException closed) {
                return true;
            }
        } catch (EOFException closed) {
            return true;
        } catch (SocketTimeoutException silent) {
            return false;
        } catch (IOException reset) {
            return true; // connection reset by the server
        }
    }

    static int type(byte[] m) {
        return m[7];
    }

    /** Reply status of a big-endian GIOP 1.2 Reply. */
    static int replyStatus(byte[] m) {
        return readInt(m, 16);
    }

    static int requestIdOfReply(byte[] m) {
        return readInt(m, 12);
    }

    /** The string result of a big-endian GIOP 1.2 NO_EXCEPTION reply without service contexts. */
    static String stringResult(byte[] m) {
        int at = bodyStart(m);
        int len = readInt(m, at);
        return new String(m, at + 4, len - 1, StandardCharsets.ISO_8859_1);
    }

    /** The octet sequence result of a GIOP 1.2 reply. */
    static int bytesResultLength(byte[] m) {
        return readInt(m, bodyStart(m));
    }

    /** Repository id of a SYSTEM_EXCEPTION reply. */
    static String exceptionId(byte[] m) {
        return stringResult(m);
    }

    /** Minor code of a big-endian SYSTEM_EXCEPTION reply: after the repository id, aligned to 4. */
    static int exceptionMinor(byte[] m) {
        int at = bodyStart(m);
        at += 4 + readInt(m, at);
        return readInt(m, (at + 3) & ~3);
    }

    private static int bodyStart(byte[] m) {
        int at = 20;
        int contexts = readInt(m, at);
        at += 4;
        for (int i = 0; i < contexts; i++) {
            at += 4; // id
            int len = readInt(m, at);
            at += 4 + len;
            at = (at + 3) & ~3;
        }
        return (at + 7) & ~7;
    }

    static int readInt(byte[] m, int at) {
        return (m[at] & 0xff) << 24 | (m[at + 1] & 0xff) << 16 | (m[at + 2] & 0xff) << 8 | (m[at + 3] & 0xff);
    }

    InputStream input() {
        return in;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** A tiny big-endian CDR writer; alignment relative to the message start (or to 0 for arguments). */
    static final class Cdr {
        private final ByteArrayOutputStream b = new ByteArrayOutputStream();
        private final int base;

        Cdr() {
            this(0);
        }

        Cdr(int base) {
            this.base = base;
        }

        void header(int type, int minor, int flags) {
            raw(new byte[] {'G', 'I', 'O', 'P', 1, (byte) minor, (byte) flags, (byte) type, 0, 0, 0, 0});
        }

        void align(int n) {
            while ((b.size() + base) % n != 0) {
                b.write(0);
            }
        }

        void octet(int v) {
            b.write(v);
        }

        void ushort(int v) {
            align(2);
            b.write(v >>> 8);
            b.write(v);
        }

        void ulong(int v) {
            align(4);
            b.write(v >>> 24);
            b.write(v >>> 16);
            b.write(v >>> 8);
            b.write(v);
        }

        void octets(byte[] v) {
            ulong(v.length);
            raw(v);
        }

        void string(String s) {
            byte[] v = s.getBytes(StandardCharsets.ISO_8859_1);
            ulong(v.length + 1);
            raw(v);
            b.write(0);
        }

        void raw(byte[] v) {
            b.write(v, 0, v.length);
        }

        byte[] bytes() {
            return b.toByteArray();
        }

        byte[] finish() {
            byte[] m = b.toByteArray();
            setSize(m, m.length - 12);
            return m;
        }
    }
}
