package org.irmi.orb.internal;

import org.irmi.orb.CallOutcome;
import org.irmi.orb.ClientCall;
import org.irmi.orb.ClientCallHook;
import org.irmi.orb.ClientDecision;
import org.irmi.orb.IrmiORB;
import org.irmi.orb.Rejection;
import org.irmi.orb.StreamTag;
import org.irmi.orb.ReplyContextListener;
import org.omg.CORBA.BAD_PARAM;
import org.omg.CORBA.LocalObject;
import org.omg.IOP.ServiceContext;
import org.omg.PortableInterceptor.ClientRequestInfo;
import org.omg.PortableInterceptor.ClientRequestInterceptor;
import org.omg.PortableInterceptor.ForwardRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Client side of the hooks. For IDL stubs it runs the client call hook in {@code send_request}
 * (JacORB's {@code Delegate} is a final class, so no earlier point exists without forking JacORB;
 * the arguments are marshalled by then but nothing is sent). RMI-IIOP stubs made by I-RMI run the
 * hook themselves before marshalling and announce their call on this thread. Every request gets
 * the stream tag in effect ({@link StreamTag}). On every reply it
 * hands the registered reply service contexts to their listeners and reports the call's end.
 *
 * <p>Synchronous calls run send_request and receive_* on the caller's thread, so the call in
 * progress is kept in a thread-local.
 */
final class ClientHookInterceptor extends LocalObject implements ClientRequestInterceptor {

    private static final Logger LOG = LoggerFactory.getLogger(ClientHookInterceptor.class);

    /** The call an I-RMI RMI stub is making on this thread (it decided and will report itself). */
    private static final ThreadLocal<ClientCall> STUB_CALL = new ThreadLocal<>();
    /** An IDL call in progress on this thread: the call and its start in nanos. */
    private static final ThreadLocal<Object[]> IDL_CALL = new ThreadLocal<>();
    /** Set after a hook forwarded: the re-issued call is not decided again. */
    private static final ThreadLocal<Boolean> FORWARDING = new ThreadLocal<>();

    private final IrmiORB orb;

    ClientHookInterceptor(IrmiORB orb) {
        this.orb = orb;
    }

    static void enterStubCall(ClientCall call) {
        STUB_CALL.set(call);
    }

    static void exitStubCall() {
        STUB_CALL.remove();
    }

    @Override
    public String name() {
        return "irmi-client-hooks";
    }

    /**
     * JacORB's ORB destroys its interceptors at shutdown: inside JacORB's own ORB class, that is
     * when the ORB's extensions, such as the isolation points, stop (IrmiORB stops them itself).
     */
    @Override
    public void destroy() {
        if (orb.attached()) {
            orb.closeExtensions();
        }
    }

    @Override
    public void send_request(ClientRequestInfo ri) throws ForwardRequest {
        String tag = orb.hooks().effectiveStreamTag();
        if (tag != null) {
            ri.add_request_service_context(new ServiceContext(StreamTag.SERVICE_CONTEXT_ID,
                    tag.getBytes(java.nio.charset.StandardCharsets.US_ASCII)), true); // validated when set
        }
        if (STUB_CALL.get() != null) {
            return;
        }
        ClientCallHook hook = orb.hooks().clientCallHook();
        if (hook == null && orb.hooks().replyContextListeners().isEmpty()) {
            return;
        }
        ClientCall call = Corba.call(ri.effective_target(), ri.operation(), !ri.response_expected(), false, null);
        if (hook != null && FORWARDING.get() == null) {
            ClientDecision d = hook.beforeCall(call);
            switch (d.kind()) {
                case FAIL:
                    throw Corba.toSystemException(d.rejection());
                case SHORT_CIRCUIT:
                    throw Corba.toSystemException(Rejection.transientFailure(
                            ClientDecision.MINOR_SHORT_CIRCUIT_UNSUPPORTED,
                            "short-circuit needs an RMI-IIOP stub; IDL calls cannot complete locally"));
                case FORWARD:
                    FORWARDING.set(Boolean.TRUE);
                    throw new ForwardRequest(orb.string_to_object(d.forwardTo()));
                default:
                    break;
            }
        }
        FORWARDING.remove();
        IDL_CALL.set(new Object[] {call, orb.hooks().clock().nanoTime()});
    }

    @Override
    public void send_poll(ClientRequestInfo ri) {
        // not used
    }

    @Override
    public void receive_reply(ClientRequestInfo ri) {
        end(ri, CallOutcome.REPLY);
    }

    @Override
    public void receive_exception(ClientRequestInfo ri) {
        String id = ri.received_exception_id();
        end(ri, id != null && id.startsWith("IDL:omg.org/CORBA/") ? CallOutcome.SYSTEM_EXCEPTION
                : CallOutcome.USER_EXCEPTION);
    }

    @Override
    public void receive_other(ClientRequestInfo ri) {
        end(ri, CallOutcome.LOCATION_FORWARD);
    }

    private void end(ClientRequestInfo ri, CallOutcome outcome) {
        ClientCall stubCall = STUB_CALL.get();
        Object[] idl = stubCall == null ? IDL_CALL.get() : null;
        if (idl != null) {
            IDL_CALL.remove();
        }
        ClientCall call = stubCall != null ? stubCall : idl != null ? (ClientCall) idl[0] : null;
        if (!orb.hooks().replyContextListeners().isEmpty()) {
            if (call == null) {
                call = Corba.call(ri.effective_target(), ri.operation(), !ri.response_expected(), false, null);
            }
            deliverContexts(ri, call);
        }
        ClientCallHook hook = orb.hooks().clientCallHook();
        if (idl != null && hook != null) {
            try {
                hook.afterCall((ClientCall) idl[0], orb.hooks().clock().nanoTime() - (Long) idl[1], outcome);
            } catch (RuntimeException e) {
                LOG.warn("client call hook afterCall failed", e);
            }
        }
    }

    private void deliverContexts(ClientRequestInfo ri, ClientCall call) {
        for (ReplyContextListener l : orb.hooks().replyContextListeners()) {
            ServiceContext sc;
            try {
                sc = ri.get_reply_service_context(l.contextId());
            } catch (BAD_PARAM absent) {
                continue;
            }
            try {
                l.onReplyContext(call, sc.context_data);
            } catch (RuntimeException e) {
                LOG.warn("reply context listener failed", e);
            }
        }
    }
}
