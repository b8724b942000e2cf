package org.irmi.orb;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Hand-made arguments of {@code measure(Object)} (an Any) whose TypeCode declares more members than
 * the message carries: the shapes JacORB allocates from ({@code StructMember[count]},
 * {@code UnionMember[]}, {@code ValueMember[]}, an enum's names), alone and nested. Big-endian CDR,
 * the TypeCode at the start of the (8-aligned) arguments; each shape writes one member whatever it
 * declares, so a count of 1 is well-formed.
 */
final class HostileTypeCodes {

    private HostileTypeCodes() {
    }

    static byte[] declaring(String shape, int count) {
        Cdr c = new Cdr();
        switch (shape) {
            case "struct" -> struct(c, 15, count);
            case "exception" -> struct(c, 22, count);
            case "union" -> c.encapsulated(16, e -> {
                e.string("IDL:U:1.0").string("U");
                e.ulong(3); // discriminator: long
                e.ulong(-1); // no default
                e.ulong(count);
                e.ulong(0).string("m").ulong(3);
            });
            case "enum" -> c.encapsulated(17, e -> e.string("IDL:E:1.0").string("E").ulong(count).string("m"));
            case "value" -> value(c, count);
            case "value-in-struct" -> c.encapsulated(15, e -> {
                e.string("IDL:S:1.0").string("S").ulong(1).string("v");
                value(e, count);
            });
            case "struct-in-value-box" -> c.encapsulated(30, e -> {
                e.string("IDL:B:1.0").string("B");
                struct(e, 15, count);
            });
            case "alias-of-sequence-of-struct" -> c.encapsulated(21, e -> {
                e.string("IDL:A:1.0").string("A");
                e.encapsulated(19, q -> {
                    struct(q, 15, count);
                    q.ulong(0);
                });
            });
            default -> throw new IllegalArgumentException(shape);
        }
        c.ulong(0).ulong(0); // a few bytes of "value"
        return c.bytes();
    }

    /** {@code levels} aliases nested in one another around a {@code long}. */
    static byte[] nestedAliases(int levels) {
        int size = 28 * levels + 4;
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(size + 8);
        for (int i = 0; i < levels; i++) {
            int typeCodeBytes = 28 * (levels - i) + 4;
            b.putInt(21).putInt(typeCodeBytes - 8);
            b.putInt(0); // byte order, padding
            b.putInt(1).putInt(0); // id "" (its NUL), padding
            b.putInt(1).putInt(0); // name ""
        }
        b.putInt(3); // long
        b.putLong(0);
        return b.array();
    }

    private static void struct(Cdr c, int kind, int count) {
        c.encapsulated(kind, e -> e.string("IDL:S:1.0").string("S").ulong(count).string("m").ulong(3));
    }

    private static void value(Cdr c, int count) {
        c.encapsulated(29, e -> {
            e.string("RMI:V:0000000000000000").string("V");
            e.ushort(0); // modifier
            e.ulong(0); // concrete base: tk_null
            e.ulong(count);
            e.string("m").ulong(3).ushort(1);
        });
    }

    /** Big-endian CDR, aligned relative to its own start (the arguments, or an encapsulation). */
    static final class Cdr {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Cdr align(int n) {
            while (out.size() % n != 0) {
                out.write(0);
            }
            return this;
        }

        Cdr ulong(int v) {
            align(4);
            out.write(v >>> 24);
            out.write(v >>> 16);
            out.write(v >>> 8);
            out.write(v);
            return this;
        }

        Cdr ushort(int v) {
            align(2);
            out.write(v >>> 8);
            out.write(v);
            return this;
        }

        Cdr string(String s) {
            byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
            ulong(b.length + 1);
            out.write(b, 0, b.length);
            out.write(0);
            return this;
        }

        /** A complex TypeCode: its kind, then its content in an encapsulation (byte order first). */
        Cdr encapsulated(int kind, java.util.function.Consumer<Cdr> content) {
            Cdr e = new Cdr();
            e.out.write(0); // big-endian
            content.accept(e);
            byte[] b = e.bytes();
            ulong(kind);
            ulong(b.length);
            out.write(b, 0, b.length);
            return this;
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }
}
