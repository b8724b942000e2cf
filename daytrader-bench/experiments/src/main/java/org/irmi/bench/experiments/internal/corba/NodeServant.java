package org.irmi.bench.experiments.internal.corba;

import org.omg.CORBA.BAD_OPERATION;
import org.omg.CORBA.portable.InputStream;
import org.omg.CORBA.portable.InvokeHandler;
import org.omg.CORBA.portable.OutputStream;
import org.omg.CORBA.portable.ResponseHandler;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.Servant;

/**
 * The server skeleton of {@code irmi::bench::Node} (see {@link BenchObject}), written by hand.
 * Each role implements only the operations it serves; the others raise {@code BAD_OPERATION}.
 *
 * <p>THREADING: called on the ORB's dispatch threads; implementations must be thread-safe.
 */
public abstract class NodeServant extends Servant implements InvokeHandler {

    private static final String[] IDS = {BenchObject.REPOSITORY_ID};

    /** An event arrives (primary). */
    protected void push(long stampNanos, byte[] data) {
        throw new BAD_OPERATION("push not served here");
    }

    /** A forwarded event arrives (secondary). */
    protected void forward(long stampNanos, byte[] data) {
        throw new BAD_OPERATION("forward not served here");
    }

    /** @return the cached object (primary) */
    protected byte[] fetch() {
        throw new BAD_OPERATION("fetch not served here");
    }

    /**
     * A crosstalk request arrives.
     *
     * @param operation {@code putBulk} or {@code putSmall}
     * @param assembledNanos time from the client's stamp to this dispatch
     * @return what to send back (the measured assembly nanoseconds)
     */
    protected long put(String operation, long assembledNanos, byte[] data) {
        throw new BAD_OPERATION("put not served here");
    }

    @Override
    public String[] _all_interfaces(POA poa, byte[] objectId) {
        return IDS.clone();
    }

    @Override
    public OutputStream _invoke(String operation, InputStream in, ResponseHandler handler) {
        switch (operation) {
            case "push": {
                long stamp = in.read_longlong();
                push(stamp, BenchObject.readBytes(in));
                return handler.createReply();
            }
            case "forward": {
                long stamp = in.read_longlong();
                forward(stamp, BenchObject.readBytes(in));
                return handler.createReply();
            }
            case "fetch": {
                byte[] data = fetch();
                OutputStream out = handler.createReply();
                BenchObject.writeBytes(out, data);
                return out;
            }
            case "putBulk", "putSmall": {
                long stamp = in.read_longlong();
                // Read the stamp's partner time now: the request is fully assembled and dispatched.
                long assembledNanos = System.nanoTime() - stamp;
                long result = put(operation, assembledNanos, BenchObject.readBytes(in));
                OutputStream out = handler.createReply();
                out.write_longlong(result);
                return out;
            }
            case "postSmall": { // oneway: no reply
                long stamp = in.read_longlong();
                put(operation, System.nanoTime() - stamp, BenchObject.readBytes(in));
                return null;
            }
            default:
                throw new BAD_OPERATION("unknown operation " + operation);
        }
    }
}
