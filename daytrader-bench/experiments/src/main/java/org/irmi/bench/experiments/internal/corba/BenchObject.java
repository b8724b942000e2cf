package org.irmi.bench.experiments.internal.corba;

import java.util.function.Consumer;
import java.util.function.Function;
import org.omg.CORBA.MARSHAL;
import org.omg.CORBA.portable.ApplicationException;
import org.omg.CORBA.portable.InputStream;
import org.omg.CORBA.portable.ObjectImpl;
import org.omg.CORBA.portable.OutputStream;
import org.omg.CORBA.portable.RemarshalException;

/**
 * The client stub of the experiments' one IDL interface, written by hand so that the module needs
 * no IDL compiler step. It is what {@code idlj}/JacORB's compiler would generate for:
 *
 * <pre>
 * module irmi { module bench {
 *   typedef sequence&lt;octet&gt; Bytes;
 *   interface Node {
 *     void push(in long long stampNanos, in Bytes data);      // event source -> primary
 *     void forward(in long long stampNanos, in Bytes data);   // primary worker -> secondary
 *     Bytes fetch();                                          // client -> primary (cached 1 MB)
 *     long long putBulk(in long long stampNanos, in Bytes data);  // crosstalk: the large stream
 *     long long putSmall(in long long stampNanos, in Bytes data); // crosstalk: a 2 KB secondary stream
 *   };
 * }; };
 * </pre>
 *
 * Every call goes through {@code _request(operation)} and {@code _invoke}, the stub path where
 * I-RMI's slow-client isolation point sits (before marshalling).
 *
 * <p>THREADING: thread-safe as CORBA stubs are; share one per target.
 */
public final class BenchObject extends ObjectImpl {

    /** The repository id of {@code irmi::bench::Node}. */
    public static final String REPOSITORY_ID = "IDL:irmi/bench/Node:1.0";

    private static final String[] IDS = {REPOSITORY_ID};

    /** The result of an operation that returns nothing. */
    private static final Function<InputStream, Void> NO_RESULT = in -> null;

    /** Wraps an object reference (from {@code string_to_object}) in this stub. */
    public static BenchObject narrow(org.omg.CORBA.Object reference) {
        BenchObject stub = new BenchObject();
        stub._set_delegate(((ObjectImpl) reference)._get_delegate());
        return stub;
    }

    @Override
    public String[] _ids() {
        return IDS.clone();
    }

    /** The event source's one-event call to the primary. */
    public void push(long stampNanos, byte[] data) {
        sendBytes("push", stampNanos, data);
    }

    /** The primary worker's call to the secondary. */
    public void forward(long stampNanos, byte[] data) {
        sendBytes("forward", stampNanos, data);
    }

    /**
     * A crosstalk stream call ({@code putBulk} for the large stream, {@code putSmall} for the
     * secondary streams); returns what the servant measured (assembly nanoseconds).
     */
    public long put(String operation, long stampNanos, byte[] data) {
        return call(operation, true, out -> writeStamped(out, stampNanos, data), InputStream::read_longlong);
    }

    /**
     * A oneway crosstalk stream call ({@code postSmall}): the request is sent and not answered, so
     * a stream of them is a stream of messages that TCP's flow control alone holds back, as a
     * client that keeps sending does.
     */
    public void post(String operation, long stampNanos, byte[] data) {
        call(operation, false, out -> writeStamped(out, stampNanos, data), NO_RESULT);
    }

    /** The client's call for the primary's cached object. */
    public byte[] fetch() {
        return call("fetch", true, out -> { }, BenchObject::readBytes);
    }

    private void sendBytes(String operation, long stampNanos, byte[] data) {
        call(operation, true, out -> writeStamped(out, stampNanos, data), NO_RESULT);
    }

    /**
     * One call through {@code _request} and {@code _invoke}, retried on a {@link RemarshalException}
     * as generated stubs do.
     *
     * @param responseExpected false for a oneway operation
     * @param arguments        writes the request's arguments
     * @param result           reads the reply (the reply stream is released afterwards)
     */
    private <T> T call(String operation, boolean responseExpected, Consumer<OutputStream> arguments,
                       Function<InputStream, T> result) {
        while (true) {
            InputStream in = null;
            try {
                OutputStream out = _request(operation, responseExpected);
                arguments.accept(out);
                in = _invoke(out);
                return result.apply(in);
            } catch (RemarshalException e) {
                // retry, as generated stubs do
            } catch (ApplicationException e) {
                throw unexpected(e);
            } finally {
                _releaseReply(in);
            }
        }
    }

    private static void writeStamped(OutputStream out, long stampNanos, byte[] data) {
        out.write_longlong(stampNanos);
        writeBytes(out, data);
    }

    static void writeBytes(OutputStream out, byte[] data) {
        out.write_ulong(data.length);
        out.write_octet_array(data, 0, data.length);
    }

    static byte[] readBytes(InputStream in) {
        int length = in.read_ulong();
        if (length < 0) {
            throw new MARSHAL("sequence length " + (length & 0xffffffffL) + " too large");
        }
        byte[] data = new byte[length];
        in.read_octet_array(data, 0, length);
        return data;
    }

    private static MARSHAL unexpected(ApplicationException e) {
        return new MARSHAL("unexpected user exception " + e.getId());
    }
}
