package org.irmi.orb.internal.rmi;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * CDR bytes (big-endian, GIOP 1.2) of the value headers and string boxes the chunking tests read
 * with JacORB's own {@code CDRInputStream}: a chunked value to enter with {@code start_value()}, and
 * a {@code CORBA::WStringValue} box with or without its chunked flag and a chunk size.
 */
final class ChunkedValueBytes {

    static final int CHUNKED_SINGLE_ID = 0x7fffff0a;
    static final int SINGLE_ID = 0x7fffff02;
    static final int NO_TYPE_INFO = 0x7fffff00;
    static final String WSTRING_VALUE = "IDL:omg.org/CORBA/WStringValue:1.0";
    /** A chunk size past the end of every test message: no chunk boundary is met while reading. */
    static final int WHOLE_MESSAGE_CHUNK = 4096;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** A CDR {@code long} at the next multiple of 4. */
    ChunkedValueBytes aLong(int v) {
        while (out.size() % 4 != 0) {
            out.write(0);
        }
        out.write(v >>> 24);
        out.write(v >>> 16);
        out.write(v >>> 8);
        out.write(v);
        return this;
    }

    /** A CDR string: its length with the NUL, its octets, the NUL. */
    ChunkedValueBytes string(String s) {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        aLong(b.length + 1);
        out.writeBytes(b);
        out.write(0);
        return this;
    }

    /** A GIOP 1.2 wide string: its length in octets, then UTF-16BE without a byte order mark. */
    ChunkedValueBytes wstring(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_16BE);
        aLong(b.length);
        out.writeBytes(b);
        return this;
    }

    /** The header of a chunked RMI value with one repository id, and its first chunk's size: enter it with {@code start_value()}. */
    ChunkedValueBytes chunkedValue() {
        return aLong(CHUNKED_SINGLE_ID).string("RMI:org.irmi.Outer:0000000000000000").aLong(WHOLE_MESSAGE_CHUNK);
    }

    /** A {@code WStringValue} box's header: {@code tag} and, unless it says no type information, the repository id. */
    ChunkedValueBytes wstringBox(int tag) {
        aLong(tag);
        return tag == NO_TYPE_INFO ? this : string(WSTRING_VALUE);
    }

    byte[] bytes() {
        return out.toByteArray();
    }

    /** JacORB's stream over these bytes (the ORB singleton's configuration). */
    org.jacorb.orb.CDRInputStream stream() {
        return new org.jacorb.orb.CDRInputStream(bytes());
    }

    /** JacORB's stream over these bytes, configured by {@code orb}. */
    org.jacorb.orb.CDRInputStream stream(org.omg.CORBA.ORB orb) {
        return new org.jacorb.orb.CDRInputStream(orb, bytes());
    }
}
