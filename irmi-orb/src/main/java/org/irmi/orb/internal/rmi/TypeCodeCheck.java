package org.irmi.orb.internal.rmi;

import org.omg.CORBA.portable.InputStream;

/**
 * Walks the CDR encoding of the TypeCode at the stream's position (mark/reset) before JacORB reads
 * it, and checks every count JacORB allocates from against the bytes left in its encapsulation.
 *
 * <p>Why: JacORB's {@code CDRInputStream.read_TypeCode} allocates a description's members
 * ({@code new StructMember[count]}, {@code UnionMember[]}, {@code ValueMember[]}, the names of an
 * enum) at the count the wire declares, before the members arrive, and an {@code Any} argument (an
 * RMI-IIOP parameter typed {@code Serializable} or {@code Object}) starts with its TypeCode. Found by
 * fuzzing: a few hundred bytes made the server throw {@code OutOfMemoryError}.
 *
 * <p>The encoding (CORBA 3, CDR 15.3.5.1): a TCKind ({@code long}); simple kinds carry nothing
 * ({@code null} ... {@code Principal}, {@code long long}, {@code wchar}) or a bound ({@code string},
 * {@code wstring}: one {@code long}; {@code fixed}: {@code ushort} digits, {@code short} scale);
 * complex kinds carry an encapsulation: a {@code long} length, then a byte-order octet and the
 * content, aligned relative to that octet. {@code 0xffffffff} is an indirection (a {@code long}
 * offset to a TypeCode read before). The walk refuses:
 * <ul>
 *   <li>an encapsulation or string longer than the bytes left around it;</li>
 *   <li>a member count whose members cannot fit in what is left of the encapsulation, at the fewest
 *       bytes a member takes: struct, exception, union and value members 8 (a name's length and a
 *       TypeCode's kind), enum members 4;</li>
 *   <li>TypeCodes nested deeper than {@link #MAX_DEPTH} (JacORB reads them recursively);</li>
 *   <li>a union whose discriminator is not an integer, char, boolean or enum kind (its labels could
 *       not be walked, so its members' TypeCodes could not be checked);</li>
 *   <li>an {@code any} inside a struct, union, sequence, array, alias or exception outside any
 *       value: JacORB reads that Any's TypeCode itself, from its own stream, unchecked. (An
 *       {@code any} member of a value is read through the filtered value handler, so through this
 *       check again.)</li>
 * </ul>
 * A kind JacORB does not know ends the walk without a refusal: JacORB fails there itself, before
 * reading anything after it.
 *
 * <p>Reads octet by octet through the stream (no copy of the message). Stateless; the caller's thread.
 */
final class TypeCodeCheck {

    /** TypeCodes nested in one another, at most (a value's base chain and members count too). */
    static final int MAX_DEPTH = 64;
    private static final int MEMBER_MIN_BYTES = 8;
    private static final int ENUM_MEMBER_MIN_BYTES = 4;
    private static final int INDIRECTION = -1;
    private static final int TK_ANY = 11;
    private static final int TK_ENUM = 17;
    private static final int TK_VALUE = 29;
    private static final int TK_VALUE_BOX = 30;

    private TypeCodeCheck() {
    }

    /** Null when the TypeCode at the stream's position may be read by JacORB; else why not. */
    static String check(InputStream in) {
        return check(in, false);
    }

    /**
     * Null when the {@code Any} at the stream's position may be read by JacORB; else why not. After
     * its TypeCode, JacORB reads the Any's value by that TypeCode from its own stream, where the
     * filter does not see it; so the value's start is checked here too: a value's or value box's
     * header as {@link ValueHeaderCheck} checks it (a box of a string or wide string with its
     * length), a string's or wide string's length against the bytes left. A struct, union,
     * sequence, array, alias or exception (IDL data, which an RMI-IIOP reader never takes from an
     * Any: GlassFish's {@code Util.readAny} takes an object reference or a value) is refused, its
     * contents unchecked.
     */
    static String checkAny(InputStream in) {
        return check(in, true);
    }

    private static String check(InputStream in, boolean any) {
        if (!in.markSupported()) {
            return null;
        }
        in.mark(0);
        try {
            int kind = in.read_long();
            if (any && kind == TK_ANY) {
                throw new Refused("an Any whose TypeCode is any (JacORB reads the inner Any's TypeCode unchecked)");
            }
            int resolved = kind;
            if (isComplex(kind)) {
                int length = in.read_long();
                int left = in.available();
                if (length < 1 || length > left) {
                    return "a TypeCode's encapsulation of " + Integer.toUnsignedString(length) + " bytes, the message has "
                            + left + " left";
                }
                Encapsulation e = new Encapsulation(in, length);
                resolved = walkEncapsulation(e, kind, 1, false);
                e.skip(e.left());
            } else if (kind == 18 || kind == 27) {
                in.read_long(); // bound
            }
            return any ? anyValue(in, kind, resolved) : null;
        } catch (Refused r) {
            return r.getMessage();
        } catch (RuntimeException | java.io.IOException e) {
            // an unknown kind, or too short to tell: JacORB's own reading fails it at the same place
            return null;
        } finally {
            try {
                in.reset();
            } catch (java.io.IOException e) {
                throw new org.omg.CORBA.MARSHAL("cannot reset the stream after a TypeCode: " + e);
            }
        }
    }

    /** The start of an Any's value of TypeCode {@code kind} ({@code resolved}: a box's content kind). */
    private static String anyValue(InputStream in, int kind, int resolved) throws java.io.IOException {
        switch (kind) {
            case TK_VALUE, TK_VALUE_BOX -> {
                return ValueHeaderCheck.header(in, kind == TK_VALUE_BOX && (resolved == 18 || resolved == 27) ? String.class : null);
            }
            case 18, 27 -> {
                int length = in.read_long();
                int left = in.available();
                return length < 0 || length > left ? "an Any's string of " + Integer.toUnsignedString(length)
                        + " bytes, the message has " + left + " left" : null;
            }
            case 15, 16, 19, 20, 21, 22 -> {
                return "an Any of IDL data (TypeCode kind " + kind + "), whose contents JacORB reads unchecked";
            }
            default -> {
                return null; // primitives, enums, fixed: fixed sizes; object references, abstract interfaces
            }
        }
    }

    private static boolean isComplex(int kind) {
        return switch (kind) {
            case 14, 15, 16, 17, 19, 20, 21, 22, 29, 30, 32 -> true;
            default -> false;
        };
    }

    /**
     * Walks one TypeCode inside {@code e}.
     *
     * @param inValue whether a value encloses it (its Anys are read through the filtered stream)
     * @return its kind with aliases resolved, or {@link #INDIRECTION}
     */
    private static int walk(Encapsulation e, int depth, boolean inValue) {
        int kind = e.readLong();
        if (kind == INDIRECTION) {
            e.readLong();
            return INDIRECTION;
        }
        if (kind == TK_ANY && !inValue && depth > 1) {
            throw new Refused("an any nested in an Any's " + "TypeCode outside a value (read by JacORB unchecked)");
        }
        if (isComplex(kind)) {
            int length = e.readLong();
            if (length < 1 || length > e.left()) {
                throw new Refused("a nested TypeCode's encapsulation of " + Integer.toUnsignedString(length)
                        + " bytes, its enclosing one has " + e.left() + " left");
            }
            Encapsulation inner = e.open(length);
            int resolved = walkEncapsulation(inner, kind, depth, inValue);
            e.close(inner);
            return resolved;
        }
        switch (kind) {
            case 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 23, 24, 26 -> {
                return kind;
            }
            case 18, 27 -> {
                e.readLong(); // bound
                return kind;
            }
            case 28 -> {
                e.readShort(); // digits
                e.readShort(); // scale
                return kind;
            }
            default -> throw new Unknown();
        }
    }

    /** The content of a complex TypeCode: {@code e} positioned at its byte-order octet. */
    private static int walkEncapsulation(Encapsulation e, int kind, int depth, boolean inValue) {
        if (depth > MAX_DEPTH) {
            throw new Refused("TypeCodes nested more than " + MAX_DEPTH + " deep");
        }
        e.littleEndian = e.readOctet() != 0;
        boolean valueInside = inValue || kind == TK_VALUE || kind == TK_VALUE_BOX;
        switch (kind) {
            case 14, 32 -> { // object reference, abstract interface: id, name
                e.skipString();
                e.skipString();
            }
            case 15, 22 -> { // struct, exception
                e.skipString();
                e.skipString();
                int count = members(e, "struct", MEMBER_MIN_BYTES);
                for (int i = 0; i < count; i++) {
                    e.skipString();
                    walk(e, depth + 1, valueInside);
                }
            }
            case 16 -> { // union
                e.skipString();
                e.skipString();
                int discriminator = walk(e, depth + 1, valueInside);
                int defaultIndex = e.readLong();
                int count = members(e, "union", MEMBER_MIN_BYTES);
                for (int i = 0; i < count; i++) {
                    if (i == defaultIndex) {
                        e.readOctet();
                    } else {
                        label(e, discriminator);
                    }
                    e.skipString();
                    walk(e, depth + 1, valueInside);
                }
            }
            case TK_ENUM -> {
                e.skipString();
                e.skipString();
                int count = members(e, "enum", ENUM_MEMBER_MIN_BYTES);
                for (int i = 0; i < count; i++) {
                    e.skipString();
                }
            }
            case 19, 20 -> { // sequence, array: element type, bound or length (nothing allocated from it here)
                walk(e, depth + 1, valueInside);
                e.readLong();
            }
            case 21 -> { // alias: id, name, the aliased type (whose kind a union's labels are read by)
                e.skipString();
                e.skipString();
                return walk(e, depth + 1, valueInside);
            }
            case TK_VALUE_BOX -> { // id, name, the boxed type (whose kind says whether the box holds a string)
                e.skipString();
                e.skipString();
                return walk(e, depth + 1, true);
            }
            case TK_VALUE -> { // id, name, modifier, concrete base, members (name, type, visibility)
                e.skipString();
                e.skipString();
                e.readShort();
                walk(e, depth + 1, true);
                int count = members(e, "value", MEMBER_MIN_BYTES);
                for (int i = 0; i < count; i++) {
                    e.skipString();
                    walk(e, depth + 1, true);
                    e.readShort();
                }
            }
            default -> throw new Unknown();
        }
        return kind;
    }

    private static int members(Encapsulation e, String what, int minBytes) {
        int count = e.readLong();
        int left = e.left();
        if (count < 0 || (long) count * minBytes > left) {
            throw new Refused("a " + what + " TypeCode declares " + Integer.toUnsignedString(count) + " members, at least "
                    + Integer.toUnsignedLong(count) * minBytes + " bytes; its encapsulation has " + left + " left");
        }
        return count;
    }

    /** A union label, read by the discriminator's (resolved) kind, as JacORB reads it. */
    private static void label(Encapsulation e, int discriminator) {
        switch (discriminator) {
            case 8, 9, 10 -> e.readOctet(); // boolean, char, octet
            case 2, 4 -> e.readShort();
            case 3, 5, TK_ENUM -> e.readLong();
            case 23, 24 -> {
                e.readLong8();
            }
            default -> throw new Refused("a union TypeCode whose discriminator is of kind " + discriminator);
        }
    }

    /** Refused: the message carries less than the TypeCode declares. */
    private static final class Refused extends RuntimeException {
        Refused(String why) {
            super(why, null, false, false);
        }
    }

    /** A kind JacORB does not read: it fails there itself. */
    private static final class Unknown extends RuntimeException {
        Unknown() {
            super(null, null, false, false);
        }
    }

    /**
     * A cursor over one encapsulation: offsets relative to its byte-order octet (CDR aligns an
     * encapsulation's content relative to it), reads bounded by its length, octet by octet from the
     * stream, in the encapsulation's byte order.
     */
    private static final class Encapsulation {
        private final InputStream in;
        private final int length;
        private int offset;
        boolean littleEndian;

        Encapsulation(InputStream in, int length) {
            this.in = in;
            this.length = length;
        }

        int left() {
            return length - offset;
        }

        int readOctet() {
            if (offset >= length) {
                throw new Refused("a TypeCode reads past the end of its encapsulation");
            }
            offset++;
            return in.read_octet() & 0xff;
        }

        private void align(int boundary) {
            while (offset % boundary != 0) {
                readOctet();
            }
        }

        private long readBytes(int n) {
            align(n);
            long v = 0;
            for (int i = 0; i < n; i++) {
                long b = readOctet();
                v = littleEndian ? v | b << (8 * i) : v << 8 | b;
            }
            return v;
        }

        int readShort() {
            return (short) readBytes(2);
        }

        int readLong() {
            return (int) readBytes(4);
        }

        void readLong8() {
            readBytes(8);
        }

        void skipString() {
            int n = readLong();
            if (n < 0 || n > left()) {
                throw new Refused("a string of " + Integer.toUnsignedString(n) + " bytes in a TypeCode, its encapsulation has "
                        + left() + " left");
            }
            skip(n);
        }

        void skip(int n) {
            byte[] scratch = new byte[Math.min(n, 256)];
            for (int left = n; left > 0; left -= scratch.length) {
                int chunk = Math.min(scratch.length, left);
                in.read_octet_array(scratch, 0, chunk);
                offset += chunk;
            }
        }

        /** A nested encapsulation of {@code n} bytes starting here (its length read already). */
        Encapsulation open(int n) {
            return new Encapsulation(in, n);
        }

        /** Steps over the rest of {@code inner}, which started at this cursor's position. */
        void close(Encapsulation inner) {
            inner.skip(inner.left());
            offset += inner.length;
        }
    }
}
