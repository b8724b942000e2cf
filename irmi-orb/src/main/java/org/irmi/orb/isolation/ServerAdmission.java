package org.irmi.orb.isolation;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

import org.irmi.isolation.Decision;
import org.irmi.isolation.IncomingRequest;
import org.irmi.isolation.MinorCodes;
import org.irmi.isolation.PoisonAdmission;
import org.irmi.orb.Rejection;
import org.irmi.orb.RequestHeader;
import org.irmi.orb.ServerRequestHook;
import org.irmi.orb.ServerVerdict;
import org.irmi.orb.StreamTag;

/**
 * Server-side admission on the reader thread: every request counts as "incoming" for the
 * slow-client point's causal pairs, its header is handed to the crosstalk driver (when a weight
 * needs headers), and the poison-message point decides whether it proceeds. A poison decision the
 * reader thread can enforce becomes the verdict (proceed, reject, or a LOCATION_FORWARD reply);
 * any other is refused as not enforceable here.
 *
 * <p>THREADING: SELECTOR THREAD ONLY; never blocks.
 */
final class ServerAdmission implements ServerRequestHook {

    /** Forward targets whose stringified IOR is kept. */
    private static final int MAX_CACHED_IORS = 64;

    private final Supplier<RuntimeWiring> wiring;
    private final CrosstalkDriver crosstalk;
    private final Function<org.omg.CORBA.Object, String> iors;
    private final Map<org.omg.CORBA.Object, String> iorStrings = new ConcurrentHashMap<>();

    /**
     * @param wiring    the wiring in force, read once per request
     * @param crosstalk takes the headers the crosstalk point needs
     * @param iors      stringifies a forward target (the ORB's {@code object_to_string})
     */
    ServerAdmission(Supplier<RuntimeWiring> wiring, CrosstalkDriver crosstalk,
                    Function<org.omg.CORBA.Object, String> iors) {
        this.wiring = wiring;
        this.crosstalk = crosstalk;
        this.iors = iors;
    }

    @Override
    public Optional<Rejection> onRequest(RequestHeader header) {
        ServerVerdict v = decide(header);
        return v.kind() == ServerVerdict.Kind.REJECT ? Optional.of(v.rejection()) : Optional.empty();
    }

    /** SELECTOR THREAD: never blocks. */
    @Override
    public ServerVerdict decide(RequestHeader h) {
        RuntimeWiring w = wiring.get();
        if (w.slowClient() != null) {
            w.slowClient().onIncoming(h.operation());
        }
        PoisonAdmission poison = w.poison();
        if (poison == null && !w.crosstalkHeaders()) {
            return ServerVerdict.PROCEED;
        }
        byte[] args = null;
        if (poison != null) {
            int want = poison.argumentBytesWanted(h.operation());
            if (want > 0) {
                ByteBuffer b = h.arguments().duplicate();
                args = new byte[Math.min(want, b.remaining())];
                b.get(args);
            }
        }
        String tag = w.tags() ? StreamTag.decode(h.serviceContexts().get(StreamTag.SERVICE_CONTEXT_ID)) : null;
        IncomingRequest req = new IncomingRequest(h.connectionId(), h.requestId(), h.peerAddress(),
                new String(h.objectKey(), StandardCharsets.ISO_8859_1), h.operation(), h.messageBytes(),
                h.responseExpected(), tag, args);
        if (w.crosstalkHeaders()) {
            crosstalk.offerHeader(req);
        }
        if (poison == null) {
            return ServerVerdict.PROCEED;
        }
        Decision d = poison.onRequestHeader(req).enforceableOnReaderThread();
        if (d instanceof Decision.Proceed) {
            poison.onDispatchStart(req.requestKey());
            return ServerVerdict.PROCEED;
        }
        if (d instanceof Decision.Reject r) {
            return ServerVerdict.reject(new Rejection(r.kind().name(), r.minor(), Rejection.Completion.NO, r.reason()));
        }
        if (d instanceof Decision.Forward f && f.target() instanceof org.omg.CORBA.Object o) {
            return ServerVerdict.forward(iorOf(o)); // LOCATION_FORWARD reply from the reader thread
        }
        return ServerVerdict.reject(Rejection.transientFailure(MinorCodes.NOT_ENFORCEABLE_HERE,
                d.action() + " is not enforceable on the server reader thread"));
    }

    /** Stringified IOR of a forward target; cached, since the reader thread must not do repeated work. */
    private String iorOf(org.omg.CORBA.Object o) {
        String s = iorStrings.get(o);
        if (s == null) {
            s = iors.apply(o);
            if (iorStrings.size() < MAX_CACHED_IORS) {
                iorStrings.put(o, s);
            }
        }
        return s;
    }
}
