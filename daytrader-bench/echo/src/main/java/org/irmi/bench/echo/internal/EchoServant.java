package org.irmi.bench.echo.internal;

import java.util.concurrent.atomic.LongAdder;

import org.irmi.bench.echo.idl.EchoPOA;
import org.irmi.bench.echo.idl.EchoRefused;
import org.omg.CORBA.BAD_PARAM;
import org.omg.CORBA.CompletionStatus;
import org.omg.CORBA.NO_RESOURCES;
import org.omg.CORBA.TRANSIENT;

/**
 * The echo servant: returns what it is given, and fails on request so clients can check how
 * exceptions cross the wire.
 *
 * <p>THREAD-SAFE: called concurrently by the ORB's dispatch threads; it keeps no state but a
 * call counter.
 */
public final class EchoServant extends EchoPOA {

    private final LongAdder calls = new LongAdder();

    @Override
    public byte[] echoBytes(byte[] data) {
        calls.increment();
        return data;
    }

    @Override
    public void ping() {
        calls.increment();
    }

    /**
     * Always throws: {@code TRANSIENT}, {@code NO_RESOURCES} or {@code BAD_PARAM} with the given
     * minor code and {@code COMPLETED_NO}, or {@link EchoRefused} for kind {@code USER}.
     */
    @Override
    public void fail(String kind, int minor) throws EchoRefused {
        calls.increment();
        switch (kind) {
            case "TRANSIENT" -> throw new TRANSIENT(minor, CompletionStatus.COMPLETED_NO);
            case "NO_RESOURCES" -> throw new NO_RESOURCES(minor, CompletionStatus.COMPLETED_NO);
            case "BAD_PARAM" -> throw new BAD_PARAM(minor, CompletionStatus.COMPLETED_NO);
            case "USER" -> throw new EchoRefused("refused as asked");
            default -> throw new BAD_PARAM("unknown failure kind '" + kind
                    + "'; use TRANSIENT, NO_RESOURCES, BAD_PARAM or USER", 0, CompletionStatus.COMPLETED_NO);
        }
    }

    /** Calls served so far (all operations). */
    public long calls() {
        return calls.sum();
    }
}
