package org.irmi.orb.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A minimal big-endian CDR writer for the few messages the reader thread builds itself. */
final class CdrWriter {

    private byte[] buf;
    private int pos;

    CdrWriter(int capacity) {
        buf = new byte[Math.max(capacity, 16)];
    }

    void header(int type, int minor) {
        ensure(12);
        buf[0] = 'G';
        buf[1] = 'I';
        buf[2] = 'O';
        buf[3] = 'P';
        buf[4] = 1;
        buf[5] = (byte) minor;
        buf[6] = 0;
        buf[7] = (byte) type;
        pos = 12;
    }

    void align(int n) {
        int pad = (n - (pos % n)) % n;
        ensure(pad);
        pos += pad;
    }

    /** GIOP 1.2 bodies start on an 8-byte boundary. */
    void alignBody8() {
        align(8);
    }

    void writeULong(int v) {
        align(4);
        ensure(4);
        Giop.writeInt(buf, pos, v, false);
        pos += 4;
    }

    void writeOctets(byte[] b) {
        writeULong(b.length);
        ensure(b.length);
        System.arraycopy(b, 0, buf, pos, b.length);
        pos += b.length;
    }

    void writeString(String s) {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        writeULong(b.length + 1);
        ensure(b.length + 1);
        System.arraycopy(b, 0, buf, pos, b.length);
        pos += b.length;
        buf[pos++] = 0;
    }

    void writeContexts(int[] ids, byte[][] data) {
        writeULong(ids.length);
        for (int i = 0; i < ids.length; i++) {
            writeULong(ids[i]);
            writeOctets(data[i]);
        }
    }

    byte[] finish() {
        Giop.writeInt(buf, 8, pos - 12, false);
        return Arrays.copyOf(buf, pos);
    }

    private void ensure(int more) {
        if (pos + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + more));
        }
    }
}
