package org.irmi.orb.internal.rmi;

import java.io.Serializable;

import javax.rmi.CORBA.ValueHandler;
import javax.rmi.CORBA.ValueHandlerMultiFormat;

import org.omg.CORBA.CompletionStatus;
import org.omg.CORBA.MARSHAL;
import org.omg.CORBA.portable.InputStream;
import org.omg.CORBA.portable.OutputStream;
import org.omg.SendingContext.RunTime;

/**
 * GlassFish's value handler behind the {@link ValueFilter}: while a server reads its arguments
 * ({@link ValueReadScope}), every value is checked before GlassFish instantiates it: its class
 * (again, after loading: module-qualified patterns apply exactly), the nesting depth, the number
 * of values and the bytes read; for an array, its length, read ahead from the stream, against
 * {@code maxarray} and against the bytes left in the message, before GlassFish allocates it.
 * A refused value ends the request with {@code MARSHAL} (completed NO); nothing of it is built.
 * What a value's own {@code readObject} sizes from the stream is checked by {@link SerialFilterHook}.
 *
 * <p>Outside a server's argument read (a client reading a reply) it only delegates.
 *
 * <p>THREADS: any thread; stateless beyond the thread's scope.
 */
final class FilteringValueHandler implements ValueHandlerMultiFormat {

    /** Vendor minor code of a refused value (see {@link org.irmi.isolation.MinorCodes}). */
    static final int MINOR_VALUE_REFUSED = org.irmi.isolation.MinorCodes.VALUE_REFUSED;

    private final ValueHandler delegate;

    FilteringValueHandler(ValueHandler delegate) {
        this.delegate = delegate;
    }

    @Override
    public Serializable readValue(InputStream in, int offset, Class clz, String repositoryID, RunTime sender) {
        ValueReadScope scope = ValueReadScope.current();
        if (scope == null) {
            return delegate.readValue(in, offset, clz, repositoryID, sender);
        }
        org.omg.CORBA.MARSHAL refused = scope.enter(clz);
        try {
            if (refused == null && !scope.filter.allows(clz)) {
                refused = scope.refuse(ValueRefusal.CLASS, clz.getName(), "class not allowed by the value filter");
            }
            if (refused == null && clz.isArray()) {
                String why = checkArrayLength(in, scope.filter.maxArray(), minWireBytes(clz.getComponentType()));
                if (why != null) {
                    refused = scope.refuse(ValueRefusal.ARRAY, clz.getName(), why);
                }
            }
            if (refused != null) {
                throw refused;
            }
            // its fields are read through the filter too: a nested value gets the header check
            return delegate.readValue(FilteredArgumentStream.checking(in, scope.filter), offset, clz, repositoryID, sender);
        } finally {
            scope.exit();
        }
    }

    /**
     * The fewest bytes one element of an array of {@code component} takes in the message: its
     * size for primitives (1 for {@code char}, whatever the encoding), 4 for a value or reference
     * (a tag or a null tag is a {@code long}).
     */
    static int minWireBytes(Class<?> component) {
        if (component == long.class || component == double.class) {
            return 8;
        }
        if (component == int.class || component == float.class) {
            return 4;
        }
        if (component == short.class) {
            return 2;
        }
        if (component == byte.class || component == boolean.class || component == char.class) {
            return 1;
        }
        return 4;
    }

    /** Reads the array's length ahead (mark/reset) and checks it; null when allowed. */
    private static String checkArrayLength(InputStream in, long maxArray, int minElementBytes) {
        if (!in.markSupported()) {
            return "array length cannot be checked on this stream";
        }
        in.mark(4);
        int length;
        int left;
        try {
            length = in.read_long();
        } finally {
            try {
                in.reset();
            } catch (java.io.IOException e) {
                throw new MARSHAL("cannot reset the stream after reading an array length: " + e);
            }
        }
        try {
            left = in.available();
        } catch (java.io.IOException e) {
            left = 0;
        }
        if (length < 0) {
            return "negative array length " + length;
        }
        if (maxArray >= 0 && length > maxArray) {
            return "array length " + length + " exceeds maxarray=" + maxArray;
        }
        if ((long) length * minElementBytes > left) {
            return "array length " + length + " needs at least " + (long) length * minElementBytes
                    + " bytes, the message has " + left + " left";
        }
        return null;
    }

    // ---- everything else is GlassFish's ----

    @Override
    public void writeValue(OutputStream out, Serializable value) {
        delegate.writeValue(out, value);
    }

    @Override
    public void writeValue(OutputStream out, Serializable value, byte streamFormatVersion) {
        if (delegate instanceof ValueHandlerMultiFormat m) {
            m.writeValue(out, value, streamFormatVersion);
        } else {
            delegate.writeValue(out, value);
        }
    }

    @Override
    public byte getMaximumStreamFormatVersion() {
        return delegate instanceof ValueHandlerMultiFormat m ? m.getMaximumStreamFormatVersion() : 1;
    }

    @Override
    public String getRMIRepositoryID(Class clz) {
        return delegate.getRMIRepositoryID(clz);
    }

    @Override
    public boolean isCustomMarshaled(Class clz) {
        return delegate.isCustomMarshaled(clz);
    }

    @Override
    public RunTime getRunTimeCodeBase() {
        return delegate.getRunTimeCodeBase();
    }

    @Override
    public Serializable writeReplace(Serializable value) {
        return delegate.writeReplace(value);
    }
}
