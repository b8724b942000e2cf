package org.irmi.orb.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.function.Function;

import org.irmi.orb.IrmiHooks;
import org.irmi.orb.Rejection;
import org.irmi.orb.ReplyContextProvider;
import org.irmi.orb.RequestHeader;
import org.irmi.orb.ServerRequestHook;
import org.irmi.orb.ServerVerdict;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Early replies: the replies the transport writes itself, before JacORB has seen the request. The
 * server request hook's rejections and forwards, {@code NO_MEMORY} for a request larger than the
 * inbound budget, and {@code TRANSIENT} when the hand-off queue is full; each carries the reply
 * service contexts of the hooks' {@link ReplyContextProvider}s ({@link ReplyContexts}).
 *
 * <p>THREADING: SELECTOR THREAD ONLY (the hook runs there too).
 */
final class EarlyReplies {

    /** Logged under the loop's name, as before the transport was split into files. */
    private static final Logger LOG = LoggerFactory.getLogger(SelectorLoop.class);
    /** Vendor minor code for "hand-off queue full" (see {@link org.irmi.isolation.MinorCodes}). */
    static final int MINOR_HANDOFF_FULL = org.irmi.isolation.MinorCodes.HANDOFF_FULL;
    /** Vendor minor code for "request larger than the inbound memory budget". */
    static final int MINOR_REQUEST_OVER_BUDGET = org.irmi.isolation.MinorCodes.REQUEST_OVER_BUDGET;

    private final IrmiHooks hooks;
    private final Function<String, org.omg.IOP.IOR> iorResolver;
    private final SelectorLoop loop;

    EarlyReplies(IrmiHooks hooks, Function<String, org.omg.IOP.IOR> iorResolver, SelectorLoop loop) {
        this.hooks = hooks;
        this.iorResolver = iorResolver;
        this.loop = loop;
    }

    /**
     * Asks the server request hook about the request {@code p} of {@code c} (the whole message
     * {@code m}); when it rejects or forwards the request, answers it (if a reply is expected).
     *
     * @return true when the hook answered the request: it goes no further
     */
    boolean answeredByHook(InboundConnection c, byte[] m, RequestParser.Parsed p, int minor) {
        ServerRequestHook hook = hooks.serverRequestHook();
        if (hook == null) {
            return false;
        }
        ByteBuffer args = ByteBuffer.wrap(m, p.bodyOffset(), m.length - p.bodyOffset()).slice()
                .order(Giop.littleEndian(m) ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN)
                .asReadOnlyBuffer();
        RequestHeader h = new RequestHeader(c.id, c.peerAddress, minor, p.requestId(), p.responseExpected(),
                p.operation(), p.objectKey(), m.length, p.serviceContexts(), args);
        ServerVerdict verdict;
        try {
            verdict = hook.decide(h);
        } catch (RuntimeException e) {
            LOG.warn("server request hook failed; request let through", e);
            verdict = ServerVerdict.PROCEED;
        }
        if (verdict != null && verdict.kind() != ServerVerdict.Kind.PROCEED) {
            loop.counters.earlyRejections.add(1);
            if (p.responseExpected()) {
                c.send(verdict.kind() == ServerVerdict.Kind.REJECT
                        ? rejectionReply(minor, p.requestId(), verdict.rejection(), p.operation())
                        : forwardReply(minor, p.requestId(), verdict.forwardTo(), p.operation()));
            }
            return true;
        }
        return false;
    }

    /**
     * A request too large for the inbound budget (see {@link RefusedRequest}): answered with
     * {@code NO_MEMORY}, completed NO, when a reply is expected; a header that cannot be read gets
     * MessageError. SELECTOR THREAD ONLY.
     */
    void refuseOverBudget(InboundConnection c, RefusedRequest r) {
        byte[] prefix = r.prefix();
        RequestParser.Parsed p;
        try {
            p = r.header();
        } catch (RequestParser.Malformed e) {
            loop.badInput.note("malformed header of an over-budget request on connection {} from {}: {}", c.id,
                    c.peerAddress, e.getMessage());
            c.messageErrorAndClose(Giop.minor(prefix));
            return;
        }
        loop.badInput.note("request {} ('{}', {} bytes declared) on connection {} from {} refused: more than the inbound"
                + " budget can hold ({} bytes)", p.requestId(), p.operation(), Giop.HEADER_BYTES + Giop.bodySize(prefix),
                c.id, c.peerAddress, loop.budget.largestMessageBytes());
        if (p.responseExpected()) {
            c.send(rejectionReply(Giop.minor(prefix), p.requestId(), new Rejection("NO_MEMORY", MINOR_REQUEST_OVER_BUDGET,
                    Rejection.Completion.NO, "request larger than the inbound memory budget"), p.operation()));
        }
    }

    /** The hand-off queue is full: {@code t} is answered {@code TRANSIENT}. */
    void handoffFull(RequestAdmission.Task t) {
        refuse(t, Rejection.transientFailure(MINOR_HANDOFF_FULL, "I-RMI hand-off queue full"));
    }

    /** {@code t}, a request that expects a reply and has not run, is answered with {@code r}. Any thread. */
    void refuse(RequestAdmission.Task t, Rejection r) {
        t.connection().send(rejectionReply(Giop.minor(t.message()), t.requestId(), r, t.operation()));
    }

    private byte[] rejectionReply(int minor, int requestId, Rejection r, String operation) {
        Object[] ctx = replyContexts(operation, true);
        return Giop.systemExceptionReply(minor, requestId, r.repositoryId(), r.minorCode(),
                r.completed().ordinal(), (int[]) ctx[0], (byte[][]) ctx[1]); // YES=0, NO=1, MAYBE=2 as in CORBA
    }

    private byte[] forwardReply(int minor, int requestId, String ior, String operation) {
        Object[] ctx = replyContexts(operation, false);
        org.omg.IOP.IOR target = iorResolver.apply(ior);
        return Giop.locationForwardReply(minor, requestId, target, (int[]) ctx[0], (byte[][]) ctx[1]);
    }

    /** The providers' contexts for one reply: {int[] ids, byte[][] data}. */
    private Object[] replyContexts(String operation, boolean exceptionReply) {
        List<ReplyContextProvider> providers = hooks.replyContextProviders();
        int[] ids = new int[providers.size()];
        byte[][] data = new byte[providers.size()][];
        int[] n = {0};
        ReplyContexts.collect(hooks, operation, exceptionReply, null, (id, d) -> {
            if (n[0] < ids.length) { // a provider added since the arrays were sized waits for the next reply
                ids[n[0]] = id;
                data[n[0]++] = d;
            }
        });
        return new Object[] {java.util.Arrays.copyOf(ids, n[0]), java.util.Arrays.copyOf(data, n[0])};
    }
}
