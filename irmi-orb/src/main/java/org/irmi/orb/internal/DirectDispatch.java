package org.irmi.orb.internal;

import java.util.List;

import org.irmi.orb.CallOutcome;
import org.irmi.orb.IrmiHooks;
import org.jacorb.config.Configuration;
import org.jacorb.orb.dsi.ServerRequest;
import org.jacorb.orb.giop.RequestInputStream;
import org.jacorb.orb.portableInterceptor.InterceptorManager;
import org.jacorb.poa.InvocationContext;
import org.jacorb.poa.POA;
import org.jacorb.poa.RPPoolManager;
import org.jacorb.poa.RequestProcessor;
import org.jacorb.poa.util.POAUtil;
import org.omg.CORBA.ORB;
import org.omg.CORBA.portable.InvokeHandler;
import org.omg.GIOP.ReplyStatusType_1_2;
import org.omg.IOP.ServiceContext;
import org.omg.PortableInterceptor.Interceptor;
import org.omg.PortableServer.POAManagerPackage.State;
import org.omg.PortableServer.Servant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The direct path: runs a request's servant on the dispatch worker that took the request from the
 * hand-off queue, and writes its reply from there. JacORB's own path queues the request a second
 * time, in the POA, where its request controller thread hands it to a request processor thread: two
 * more thread hops per request, and with any portable interceptor registered, a
 * {@code ServerRequestInfoImpl} per request that looks the servant's POA and interfaces up again.
 *
 * <p>It is taken only where nothing the application can see depends on the POA's queue: a two-way
 * request, on a connection whose code sets are negotiated, to an active object of an active POA with
 * RETAIN, USE_ACTIVE_OBJECT_MAP_ONLY and ORB_CTRL_MODEL, whose servant is a stream-based skeleton
 * ({@link InvokeHandler}), for an operation that is not one of CORBA::Object's ({@code _is_a},
 * {@code _non_existent}, ...), with no Messaging timing policies, on an ORB whose only server
 * interceptor is I-RMI's own (whose hooks this path calls itself). Every other request goes
 * JacORB's way, unchanged. The servant sees the same POA current (its POA, object id and servant)
 * as on a POA thread.
 *
 * <p>At most {@code maxServants} servants run on this path at once (one per dispatch worker beyond
 * {@code dispatch_threads}), so a few workers always stay free for what is not a request (replies to
 * callbacks that blocked servants wait for), however many closed-loop connections have a request in
 * flight. Each servant run here also holds one of its POA's request processors, unused, while it
 * runs: {@code jacorb.poa.thread_pool_max} bounds a POA's servants on both paths together, as in
 * stock JacORB. A request that finds either busy goes JacORB's way, into the POA's queue, where
 * JacORB's {@code queue_max}, {@code queue_wait} and {@code threadtimeout} apply to it.
 *
 * <p>What differs: the POA does not count these requests as active, so {@code deactivate_object}
 * and {@code destroy(..., true)} do not wait for them as for the requests the POA runs (a servant
 * that is being deactivated may still get a request that had already started). While a request of
 * a connection that went JacORB's way has not finished, the connection's later requests go JacORB's
 * way behind it ({@link RunningRequests}, {@link HandOffLane}; docs/orb.md, "Order", says what order
 * this does not guarantee).
 *
 * <p>THREADING: {@link #run} on dispatch workers, any number at once.
 */
final class DirectDispatch {

    private static final Logger LOG = LoggerFactory.getLogger(DirectDispatch.class);

    private final org.jacorb.orb.ORB orb;
    /** The hooks used when I-RMI's interceptor is not registered; made now, so its classes load now. */
    private final ServerRequestHooks ownHooks;
    /** The server hooks: those of I-RMI's interceptor when it is registered (one instance for both paths); set with {@link #interceptorsAllow}. */
    private volatile ServerRequestHooks hooks;
    private final boolean requireSsl;
    private final boolean useServantClassLoader;
    /**
     * Each worker thread's running request (its POA current context, its hooks' view), made on the
     * thread's first request by {@code withInitial}, not a null test of ours (see {@link ThreadSchedStat}).
     */
    private final ThreadLocal<Running> running = ThreadLocal.withInitial(this::newRunning);
    /** Null until the first request: the interceptors are known only once the ORB is initialised. */
    private volatile Boolean interceptorsAllow;
    private volatile POA rootPoa;
    private final int maxServants;
    private final java.util.concurrent.atomic.AtomicInteger servantsRunning = new java.util.concurrent.atomic.AtomicInteger();
    /** Requests this path ran. */
    private final java.util.concurrent.atomic.LongAdder taken = new java.util.concurrent.atomic.LongAdder();

    /**
     * @param maxServants the most servants this path runs at once
     */
    DirectDispatch(org.jacorb.orb.ORB orb, IrmiHooks hooks, Configuration config, int maxServants)
            throws org.jacorb.config.ConfigurationException {
        this.orb = orb;
        this.maxServants = maxServants;
        this.ownHooks = new ServerRequestHooks(hooks);
        // as JacORB's ServerRequestListener: such an ORB refuses plain requests, which its own path does
        this.requireSsl = config.getAttributeAsBoolean("jacorb.security.support_ssl", false)
                && (config.getAttributeAsInteger("jacorb.security.ssl.server.required_options", 0x10, 16) & 0x60) != 0;
        this.useServantClassLoader = config.getAttributeAsBoolean("jacorb.poa.useServantClassLoader", false);
        // loaded now, not at the first request: a server out of file descriptors cannot load classes
        // from a directory, and the first request must not be the one to find that out
        new Running(orb).finish();
        JacorbPoaInternals.load();
    }

    /**
     * Whether {@code operation} is one of CORBA::Object's operations, which JacORB's request processor
     * answers itself instead of the servant: the same seven names as its {@code RequestProcessor}
     * (JacORB 3.9). Any other name, also one that starts with an underscore, is the servant's: an
     * IDL attribute's accessor ({@code _get_x}, {@code _set_x}) and an RMI-IIOP getter
     * ({@code getMarketSummary()} is {@code _get_marketSummary}) are the servant's operations.
     */
    static boolean isObjectOperation(String operation) {
        if (operation.isEmpty() || operation.charAt(0) != '_') {
            return false;
        }
        return switch (operation) {
            case "_is_a", "_interface", "_non_existent", "_get_policy", "_set_policy_overrides", "_get_component",
                 "_repository_id" -> true;
            default -> false;
        };
    }

    /**
     * Runs {@code message} (a GIOP Request) here when the direct path may take it, and replies.
     *
     * @return false, with nothing done that JacORB's path would not do again, when it must go JacORB's way
     * @throws RuntimeException when the request's header cannot be read (malformed input)
     */
    boolean run(byte[] message, IrmiServerGIOPConnection connection) {
        if (requireSsl || !connection.isTCSNegotiated() || !interceptorsAllow()) {
            return false;
        }
        RequestInputStream in = new RequestInputStream(orb, connection, message);
        if (in.isLocateRequest() || (in.req_hdr.response_flags & 0x03) != 0x03 || isObjectOperation(in.req_hdr.operation)) {
            return false; // oneways and CORBA::Object's operations go JacORB's way
        }
        in.setCodeSet(connection.getTCS(), connection.getTCSW());
        in.updateMutatorConnection(connection);
        ServerRequest request;
        try {
            request = new ServerRequest(orb, in, connection);
        } catch (org.jacorb.poa.except.POAInternalError notOurs) {
            return false;
        }
        if (request.getTagGroup() != null || request.getRequestEndTime() != null || request.getReplyEndTime() != null
                || request.getRequestStartTime() != null) {
            return false;
        }
        POA poa = targetPoa(request);
        if (poa == null) {
            return false;
        }
        Servant servant;
        try {
            servant = poa.id_to_servant(request.objectId());
        } catch (org.omg.PortableServer.POAPackage.ObjectNotActive | org.omg.PortableServer.POAPackage.WrongPolicy
                 | org.omg.CORBA.SystemException e) {
            return false; // JacORB's path gives the right answer
        }
        if (!(servant instanceof InvokeHandler handler)) {
            return false;
        }
        if (servantsRunning.incrementAndGet() > maxServants) {
            servantsRunning.decrementAndGet();
            return false; // every servant slot busy: into the POA's queue
        }
        RPPoolManager pool = null;
        RequestProcessor processor = null;
        try {
            pool = JacorbPoaInternals.poolOf(poa);
            processor = JacorbPoaInternals.takeFreeProcessor(pool);
            if (processor == null) {
                return false; // the POA's pool is busy: its queue and its limits decide, as in JacORB
            }
            connection.incPendingMessages(); // as JacORB's listener; the reply takes it back
            taken.increment(); // before the reply: whoever has the reply sees it counted
            invoke(request, poa, servant, handler, connection);
        } finally {
            servantsRunning.decrementAndGet();
            if (processor != null) {
                JacorbPoaInternals.releaseProcessor(pool, processor);
            }
        }
        // Written once the servant's slot and processor are free again: they bound the servants that
        // run, not the replies being written. Held through the write, they would count a request that
        // its client sees answered (and whose next request may already be here) as running: with every
        // processor so held, the POA's queue then holds every caller's next request at once, and at
        // jacorb.poa.queue_max the one after them is refused, though no more than queue_max callers wait.
        request.reply(); // JacORB logs and drops a reply it cannot write, as on its own path
        return true;
    }

    /** Requests this path has run. Any thread. */
    long taken() {
        return taken.sum();
    }

    private boolean interceptorsAllow() {
        Boolean allow = interceptorsAllow;
        if (allow == null) {
            InterceptorManager manager = orb.getInterceptorManager();
            allow = true;
            ServerRequestHooks shared = null;
            if (manager != null) {
                for (Interceptor i : JacorbPoaInternals.serverInterceptors(manager)) {
                    if (i instanceof ServerHookInterceptor own) {
                        shared = own.hooks();
                    } else {
                        allow = false;
                    }
                }
            }
            hooks = shared != null ? shared : ownHooks;
            interceptorsAllow = allow;
        }
        return allow;
    }

    /** The ORB's root POA, looked up once ({@code getRootPOA} locks the ORB). */
    private POA rootPoa() {
        POA root = rootPoa;
        if (root == null) {
            root = orb.getRootPOA();
            rootPoa = root;
        }
        return root;
    }

    /**
     * The request's POA when the direct path may run it there, else null. As JacORB's listener finds
     * it; whatever fails on the way (an adapter activator that throws, a POA being destroyed) sends
     * the request JacORB's way, which answers it as JacORB does.
     */
    private POA targetPoa(ServerRequest request) {
        POA poa;
        try {
            String implName = POAUtil.extractImplName(request.objectKey());
            if (!implName.equals(orb.getImplName()) && !implName.equals(orb.getServerIdString())) {
                return null;
            }
            poa = rootPoa();
            List<String> scopes = request.getScopes();
            for (int i = 0; i < scopes.size() && poa != null; i++) {
                String scope = scopes.get(i);
                if (scope.isEmpty()) {
                    break;
                }
                poa = poa._getChildPOA(scope);
            }
            if (poa == null || poa.the_POAManager().get_state().value() != State._ACTIVE || !poa.isRetain()
                    || poa.isUseServantManager()) {
                return null;
            }
        } catch (org.jacorb.poa.except.ParentIsHolding | RuntimeException e) {
            return null;
        }
        return JacorbPoaInternals.isUseDefaultServant(poa) || JacorbPoaInternals.isSingleThreadModel(poa) ? null : poa;
    }

    /** Runs the servant, as JacORB's request processor does, and leaves the reply (or exception) on {@code request}. Never throws. */
    private void invoke(ServerRequest request, POA poa, Servant servant, InvokeHandler handler,
                        IrmiServerGIOPConnection connection) {
        Running r = null;
        try {
            r = running.get();
            r.start(request, poa, servant, connection);
            try {
                orb.notifyTransportListeners(connection);
                hooks.begin(r);
                invokeServant(request, servant, handler);
            } catch (RuntimeException e) {
                LOG.warn("rid {} {}: the request could not be run", request.requestId(), request.operation(), e);
                request.setSystemException(new org.omg.CORBA.INTERNAL(e.toString()));
            }
            int status = request.status().value();
            hooks.end(r, status == ReplyStatusType_1_2._USER_EXCEPTION || status == ReplyStatusType_1_2._SYSTEM_EXCEPTION,
                    switch (status) {
                        case ReplyStatusType_1_2._USER_EXCEPTION -> CallOutcome.USER_EXCEPTION;
                        case ReplyStatusType_1_2._SYSTEM_EXCEPTION -> CallOutcome.SYSTEM_EXCEPTION;
                        case ReplyStatusType_1_2._LOCATION_FORWARD -> CallOutcome.LOCATION_FORWARD;
                        default -> CallOutcome.REPLY;
                    });
        } catch (Throwable e) {
            // the request is this path's now: it gets an answer whatever failed around its servant
            LOG.warn("rid {} {}: the server hooks failed", request.requestId(), request.operation(), e);
            request.setSystemException(new org.omg.CORBA.INTERNAL(e.toString()));
        } finally {
            if (r != null) {
                r.finish();
            }
        }
    }

    private void invokeServant(ServerRequest request, Servant servant, InvokeHandler handler) {
        Thread thread = Thread.currentThread();
        ClassLoader previousLoader = null;
        if (useServantClassLoader) {
            previousLoader = thread.getContextClassLoader();
            thread.setContextClassLoader(servant.getClass().getClassLoader());
        }
        try {
            handler._invoke(request.operation(), request.getInputStream(), request);
        } catch (org.omg.CORBA.SystemException e) {
            LOG.debug("rid {} {}: system exception from the servant", request.requestId(), request.operation(), e);
            request.setSystemException(e);
        } catch (OutOfMemoryError e) {
            request.setSystemException(new org.omg.CORBA.NO_MEMORY(e.toString()));
        } catch (Throwable e) {
            LOG.error("rid {} {}: the servant threw", request.requestId(), request.operation(), e);
            request.setSystemException(new org.omg.CORBA.UNKNOWN(e.toString()));
        } finally {
            if (useServantClassLoader) {
                thread.setContextClassLoader(previousLoader);
            }
        }
    }

    private Running newRunning() {
        Running r = new Running(orb);
        orb.getPOACurrent()._addContext(Thread.currentThread(), r);
        return r;
    }

    /**
     * The request running on one worker thread: what the POA current answers there (as JacORB's
     * request processor, which is its own thread's context) and what the hooks read of it.
     */
    private static final class Running implements InvocationContext, ServerRequestHooks.Request {
        private final ORB orb;
        private ServerRequest request;
        private POA poa;
        private Servant servant;
        private IrmiServerGIOPConnection connection;

        Running(ORB orb) {
            this.orb = orb;
        }

        void start(ServerRequest request, POA poa, Servant servant, IrmiServerGIOPConnection connection) {
            this.request = request;
            this.poa = poa;
            this.servant = servant;
            this.connection = connection;
        }

        void finish() {
            request = null;
            poa = null;
            servant = null;
            connection = null;
        }

        @Override
        public byte[] getObjectId() {
            ServerRequest r = request;
            return r == null ? null : r.objectId();
        }

        @Override
        public ORB getORB() {
            return orb;
        }

        @Override
        public POA getPOA() {
            return poa;
        }

        @Override
        public Servant getServant() {
            return servant;
        }

        @Override
        public String operation() {
            return request.operation();
        }

        @Override
        public int requestId() {
            return request.requestId();
        }

        @Override
        public IrmiServerGIOPConnection connection() {
            return connection;
        }

        @Override
        public byte[] objectKey() {
            return request.objectKey();
        }

        @Override
        public void addReplyContext(int contextId, byte[] data) {
            request.get_out().addServiceContext(new ServiceContext(contextId, data));
        }
    }
}
