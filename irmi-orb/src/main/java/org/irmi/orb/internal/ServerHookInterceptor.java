package org.irmi.orb.internal;

import org.irmi.orb.CallOutcome;
import org.jacorb.orb.giop.GIOPConnection;
import org.jacorb.orb.portableInterceptor.ServerRequestInfoImpl;
import org.omg.CORBA.LocalObject;
import org.omg.IOP.ServiceContext;
import org.omg.PortableInterceptor.ServerRequestInfo;
import org.omg.PortableInterceptor.ServerRequestInterceptor;

/**
 * The server hooks ({@link ServerRequestHooks}) on requests that JacORB's POA runs: measured from
 * the first interception point to the last, on the POA thread that runs the servant. Requests of
 * the direct path ({@link DirectDispatch}) call the same hooks themselves.
 */
final class ServerHookInterceptor extends LocalObject implements ServerRequestInterceptor {

    private final ServerRequestHooks hooks;

    ServerHookInterceptor(ServerRequestHooks hooks) {
        this.hooks = hooks;
    }

    /** The hooks this interceptor calls: the direct path calls the same instance. */
    ServerRequestHooks hooks() {
        return hooks;
    }

    @Override
    public String name() {
        return "irmi-server-hooks";
    }

    @Override
    public void destroy() {
        // stateless
    }

    @Override
    public void receive_request_service_contexts(ServerRequestInfo ri) {
        hooks.begin(new Intercepted(ri));
    }

    @Override
    public void receive_request(ServerRequestInfo ri) {
        // measured from receive_request_service_contexts; a JacORB-way request keeps the connection's
        // later requests off the direct path until it ends, not just until here (RunningRequests)
    }

    @Override
    public void send_reply(ServerRequestInfo ri) {
        hooks.end(new Intercepted(ri), false, CallOutcome.REPLY);
    }

    @Override
    public void send_exception(ServerRequestInfo ri) {
        CallOutcome outcome = ri.reply_status() == org.omg.PortableInterceptor.USER_EXCEPTION.value
                ? CallOutcome.USER_EXCEPTION : CallOutcome.SYSTEM_EXCEPTION;
        hooks.end(new Intercepted(ri), true, outcome);
    }

    @Override
    public void send_other(ServerRequestInfo ri) {
        hooks.end(new Intercepted(ri), false,
                ri.response_expected() ? CallOutcome.LOCATION_FORWARD : CallOutcome.ONEWAY);
    }

    /** One interception point's view of the request. */
    private record Intercepted(ServerRequestInfo ri) implements ServerRequestHooks.Request {

        @Override
        public String operation() {
            return ri.operation();
        }

        @Override
        public int requestId() {
            return ri.request_id();
        }

        @Override
        public IrmiServerGIOPConnection connection() {
            if (ri instanceof ServerRequestInfoImpl impl) {
                GIOPConnection c = impl.getConnection();
                if (c instanceof IrmiServerGIOPConnection irmi) {
                    return irmi;
                }
            }
            return null;
        }

        @Override
        public byte[] objectKey() {
            if (ri instanceof ServerRequestInfoImpl impl && impl.getRequestStream() != null) {
                try {
                    return impl.getRequestStream().req_hdr.target.object_key();
                } catch (org.omg.CORBA.BAD_OPERATION notAKey) {
                    // addressed by profile or IOR: fall back to the object id
                }
            }
            return ri.object_id();
        }

        @Override
        public void addReplyContext(int contextId, byte[] data) {
            ri.add_reply_service_context(new ServiceContext(contextId, data), true);
        }
    }
}
