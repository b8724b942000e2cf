package org.irmi.orb.internal;

import org.irmi.orb.ClientCall;
import org.irmi.orb.ClientCallHook;
import org.irmi.orb.ClientDecision;
import org.irmi.orb.IrmiORB;
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
 * hook themselves before marshalling and mark the call so it is not decided twice. On every reply
 * it hands the registered reply service contexts to their listeners.
 */
final class ClientHookInterceptor extends LocalObject implements ClientRequestInterceptor {

    private static final Logger LOG = LoggerFactory.getLogger(ClientHookInterceptor.class);

    /** Set by an I-RMI RMI stub for the call it already decided before marshalling. */
    private static final ThreadLocal<Boolean> DECIDED_BY_STUB = new ThreadLocal<>();

    private final IrmiORB orb;

    ClientHookInterceptor(IrmiORB orb) {
        this.orb = orb;
    }

    /** Marks the next call of this thread as decided by the stub. */
    static void markDecidedByStub() {
        DECIDED_BY_STUB.set(Boolean.TRUE);
    }

    /** Clears the mark (the stub's finally). */
    static void clearDecidedByStub() {
        DECIDED_BY_STUB.remove();
    }

    @Override
    public String name() {
        return "irmi-client-hooks";
    }

    @Override
    public void destroy() {
        // stateless
    }

    @Override
    public void send_request(ClientRequestInfo ri) throws ForwardRequest {
        if (DECIDED_BY_STUB.get() != null) {
            DECIDED_BY_STUB.remove();
            return;
        }
        ClientCallHook hook = orb.hooks().clientCallHook();
        if (hook == null) {
            return;
        }
        org.omg.CORBA.Object target = ri.effective_target();
        ClientDecision d = hook.beforeCall(new ClientCall(Corba.targetKey(target), Corba.typeId(target),
                ri.operation(), !ri.response_expected(), false));
        switch (d.kind()) {
            case FAIL:
                throw Corba.toSystemException(d.rejection());
            case FORWARD:
                throw new ForwardRequest(orb.string_to_object(d.forwardTo()));
            default:
                break;
        }
    }

    @Override
    public void send_poll(ClientRequestInfo ri) {
        // not used
    }

    @Override
    public void receive_reply(ClientRequestInfo ri) {
        deliverContexts(ri);
    }

    @Override
    public void receive_exception(ClientRequestInfo ri) {
        deliverContexts(ri);
    }

    @Override
    public void receive_other(ClientRequestInfo ri) {
        deliverContexts(ri);
    }

    private void deliverContexts(ClientRequestInfo ri) {
        if (orb.hooks().replyContextListeners().isEmpty()) {
            return;
        }
        String target = null;
        for (ReplyContextListener l : orb.hooks().replyContextListeners()) {
            ServiceContext sc;
            try {
                sc = ri.get_reply_service_context(l.contextId());
            } catch (BAD_PARAM absent) {
                continue;
            }
            if (target == null) {
                target = Corba.targetKey(ri.effective_target());
            }
            try {
                l.onReplyContext(target, ri.operation(), sc.context_data);
            } catch (RuntimeException e) {
                LOG.warn("reply context listener failed", e);
            }
        }
    }
}
