package org.irmi.orb.internal.rmi;

import java.io.IOException;
import java.io.Serializable;
import java.util.function.Supplier;

import org.omg.CORBA.portable.BoxedValueHelper;

/**
 * The request stream a server's RMI-IIOP tie reads its arguments from, with every value, abstract
 * interface and Any read inside a {@link ValueReadScope} of the {@link ValueFilter}, and with a
 * {@link FilteringClassLoader} as context class loader for that read only.
 *
 * <p>Why a wrapper around the stream and not around the whole invocation: the servant runs inside
 * the tie's {@code _invoke} too, and must see its own context class loader and read the replies
 * of its own outgoing calls without the server's filter. Everything else is forwarded as is.
 *
 * <p>It is also what GlassFish's value handler reads a value's fields from
 * ({@link FilteringValueHandler}), so that a value nested in another gets the same header check
 * before JacORB reads it: JacORB allocates a value's repository-id list at the count the header
 * declares, at any depth.
 *
 * <p>THREADS: the thread that runs the invocation, as the stream it wraps.
 */
final class FilteredArgumentStream extends org.omg.CORBA_2_3.portable.InputStream
        implements org.omg.CORBA.portable.ValueInputStream {

    private final org.omg.CORBA_2_3.portable.InputStream in;
    private final ValueFilter filter;

    FilteredArgumentStream(org.omg.CORBA_2_3.portable.InputStream in, ValueFilter filter) {
        this.in = in;
        this.filter = filter;
    }

    /**
     * As {@link #filtered}, after checking the counts and lengths in the value's header that JacORB
     * would allocate from ({@link ValueHeaderCheck}).
     *
     * @param expected the class the reader expects, or null
     */
    private <T> T filteredValue(Supplier<T> read, Class<?> expected) {
        refuseIf(ValueHeaderCheck.check(in, expected), "a value header");
        return filtered(read);
    }

    private static void refuseIf(String why, String what) {
        refuseIf(ValueRefusal.HEADER, why, what);
    }

    private static void refuseIf(ValueRefusal kind, String why, String what) {
        if (why != null) {
            ValueReadScope scope = ValueReadScope.current();
            throw scope != null ? scope.refuse(kind, what, why) : refusal(kind, what, why);
        }
    }

    private static org.omg.CORBA.MARSHAL refusal(ValueRefusal kind, String what, String why) {
        ValueFilters.refused(kind, what, why);
        return ValueFilters.marshal(kind, what, why);
    }

    private <T> T filtered(Supplier<T> read) {
        ValueReadScope scope = ValueReadScope.open(filter, in);
        if (scope == null) {
            return read.get();
        }
        Thread t = Thread.currentThread();
        ClassLoader context = t.getContextClassLoader();
        if (context != null) {
            t.setContextClassLoader(filter.contextLoader(context));
        }
        try {
            return read.get();
        } catch (Throwable e) {
            // What a value's readObject throws (a refusal of the serialization filter hook is an
            // InvalidClassException there) GlassFish rethrows unchecked as it is (its Bridge.throwException),
            // and JacORB may wrap it again: the request is answered as the refusal itself
            org.omg.CORBA.MARSHAL refused = scope.refusal();
            if (refused == null && rejectedBySerialFilter(e)) {
                refused = scope.refusedBySerialFilter("a value's readObject");
            }
            if (refused != null) {
                throw refused;
            }
            throw e;
        } finally {
            t.setContextClassLoader(context);
            scope.close();
        }
    }

    /**
     * Whether {@code e} was caused by an {@code ObjectInputFilter} (the operator's
     * {@code jdk.serialFilter} when I-RMI's hook could not be installed in front of it): the JDK
     * throws {@code InvalidClassException("filter status: REJECTED")}.
     */
    private static boolean rejectedBySerialFilter(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof java.io.InvalidClassException && String.valueOf(c.getMessage()).contains("filter status: REJECTED")) {
                return true;
            }
        }
        return false;
    }

    // ---- reads that may name classes: filtered ----

    @Override
    public Serializable read_value() {
        return filteredValue(in::read_value, null);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Serializable read_value(Class clz) {
        return filteredValue(() -> in.read_value(clz), clz);
    }

    @Override
    public Serializable read_value(String repId) {
        return filteredValue(() -> in.read_value(repId), null);
    }

    @Override
    public Serializable read_value(Serializable value) {
        return filteredValue(() -> in.read_value(value), null);
    }

    @Override
    public Serializable read_value(BoxedValueHelper factory) {
        return filteredValue(() -> in.read_value(factory),
                factory instanceof org.omg.CORBA.WStringValueHelper || factory instanceof org.omg.CORBA.StringValueHelper
                        ? String.class : null);
    }

    @Override
    public Object read_abstract_interface() {
        return filtered(in::read_abstract_interface);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Object read_abstract_interface(Class clz) {
        return filtered(() -> in.read_abstract_interface(clz));
    }

    @Override
    public org.omg.CORBA.Any read_any() {
        // JacORB reads the Any's TypeCode first, and allocates its members at the counts it declares;
        // then its value by that TypeCode, from its own stream
        refuseIf(ValueRefusal.TYPECODE, TypeCodeCheck.checkAny(in), "an Any");
        return filtered(in::read_any);
    }

    // ---- everything else: forwarded ----

    @Override
    public boolean read_boolean() {
        return in.read_boolean();
    }

    @Override
    public char read_char() {
        return in.read_char();
    }

    @Override
    public char read_wchar() {
        return in.read_wchar();
    }

    @Override
    public byte read_octet() {
        return in.read_octet();
    }

    @Override
    public short read_short() {
        return in.read_short();
    }

    @Override
    public short read_ushort() {
        return in.read_ushort();
    }

    @Override
    public int read_long() {
        return in.read_long();
    }

    @Override
    public int read_ulong() {
        return in.read_ulong();
    }

    @Override
    public long read_longlong() {
        return in.read_longlong();
    }

    @Override
    public long read_ulonglong() {
        return in.read_ulonglong();
    }

    @Override
    public float read_float() {
        return in.read_float();
    }

    @Override
    public double read_double() {
        return in.read_double();
    }

    @Override
    public String read_string() {
        refuseIf(ValueHeaderCheck.string(in), "a string");
        return in.read_string();
    }

    @Override
    public String read_wstring() {
        refuseIf(ValueHeaderCheck.string(in), "a wide string");
        return in.read_wstring();
    }

    @Override
    public void read_boolean_array(boolean[] v, int off, int len) {
        in.read_boolean_array(v, off, len);
    }

    @Override
    public void read_char_array(char[] v, int off, int len) {
        in.read_char_array(v, off, len);
    }

    @Override
    public void read_wchar_array(char[] v, int off, int len) {
        in.read_wchar_array(v, off, len);
    }

    @Override
    public void read_octet_array(byte[] v, int off, int len) {
        in.read_octet_array(v, off, len);
    }

    @Override
    public void read_short_array(short[] v, int off, int len) {
        in.read_short_array(v, off, len);
    }

    @Override
    public void read_ushort_array(short[] v, int off, int len) {
        in.read_ushort_array(v, off, len);
    }

    @Override
    public void read_long_array(int[] v, int off, int len) {
        in.read_long_array(v, off, len);
    }

    @Override
    public void read_ulong_array(int[] v, int off, int len) {
        in.read_ulong_array(v, off, len);
    }

    @Override
    public void read_longlong_array(long[] v, int off, int len) {
        in.read_longlong_array(v, off, len);
    }

    @Override
    public void read_ulonglong_array(long[] v, int off, int len) {
        in.read_ulonglong_array(v, off, len);
    }

    @Override
    public void read_float_array(float[] v, int off, int len) {
        in.read_float_array(v, off, len);
    }

    @Override
    public void read_double_array(double[] v, int off, int len) {
        in.read_double_array(v, off, len);
    }

    @Override
    public org.omg.CORBA.Object read_Object() {
        return in.read_Object();
    }

    @Override
    @SuppressWarnings("rawtypes")
    public org.omg.CORBA.Object read_Object(Class clz) {
        return in.read_Object(clz);
    }

    @Override
    public org.omg.CORBA.TypeCode read_TypeCode() {
        refuseIf(ValueRefusal.TYPECODE, TypeCodeCheck.check(in), "a TypeCode");
        return in.read_TypeCode();
    }

    @Override
    public java.math.BigDecimal read_fixed() {
        return in.read_fixed();
    }

    @Override
    public org.omg.CORBA.ORB orb() {
        return in.orb();
    }

    @Override
    public int read() throws IOException {
        return in.read();
    }

    @Override
    public int available() throws IOException {
        return in.available();
    }

    @Override
    public boolean markSupported() {
        return in.markSupported();
    }

    @Override
    public synchronized void mark(int readLimit) {
        in.mark(readLimit);
    }

    @Override
    public synchronized void reset() throws IOException {
        in.reset();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    // ---- chunked values (custom-marshalled classes, stream format 2): GlassFish asks for these ----

    @Override
    public void start_value() {
        valueStream().start_value();
    }

    @Override
    public void end_value() {
        valueStream().end_value();
    }

    private org.omg.CORBA.portable.ValueInputStream valueStream() {
        if (in instanceof org.omg.CORBA.portable.ValueInputStream v) {
            return v;
        }
        throw new org.omg.CORBA.MARSHAL("the request stream " + in.getClass().getName() + " cannot read chunked values");
    }

    /** {@code in} wrapped so that the values read from it are checked, unless it is wrapped already. */
    static org.omg.CORBA.portable.InputStream checking(org.omg.CORBA.portable.InputStream in, ValueFilter filter) {
        if (in instanceof FilteredArgumentStream || !(in instanceof org.omg.CORBA_2_3.portable.InputStream in23)) {
            return in;
        }
        return new FilteredArgumentStream(in23, filter);
    }
}
