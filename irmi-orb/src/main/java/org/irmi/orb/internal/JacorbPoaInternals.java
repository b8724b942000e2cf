package org.irmi.orb.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;

import org.jacorb.orb.portableInterceptor.InterceptorManager;
import org.jacorb.poa.POA;
import org.jacorb.poa.RPPoolManager;
import org.jacorb.poa.RequestController;
import org.jacorb.poa.RequestProcessor;
import org.omg.PortableInterceptor.Interceptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the direct path ({@link DirectDispatch}) reads and uses of JacORB 3.9's POA that JacORB does
 * not make public: two policy tests, the registered server interceptors, and the POA's pool of
 * request processors. Looked up once, when the class loads: a JacORB whose internals differ fails
 * there, with a message, not at a request.
 *
 * <p>THREADING: any thread.
 */
final class JacorbPoaInternals {

    private static final Logger LOG = LoggerFactory.getLogger(DirectDispatch.class);

    private static final MethodHandle IS_SINGLE_THREAD_MODEL;
    private static final MethodHandle IS_USE_DEFAULT_SERVANT;
    private static final VarHandle SERVER_INTERCEPTORS;
    private static final MethodHandle REQUEST_CONTROLLER;
    private static final MethodHandle POOL_MANAGER;
    private static final MethodHandle POOL_COUNT;
    private static final MethodHandle POOL_SIZE;
    private static final VarHandle POOL_MAX;
    private static final MethodHandle GET_PROCESSOR;
    private static final MethodHandle RELEASE_PROCESSOR;
    private static final VarHandle ROOT_POA;
    private static final VarHandle ACTIVE_REQUESTS;

    static {
        try {
            MethodHandles.Lookup poa = MethodHandles.privateLookupIn(POA.class, MethodHandles.lookup());
            IS_SINGLE_THREAD_MODEL = poa.findVirtual(POA.class, "isSingleThreadModel", MethodType.methodType(boolean.class));
            IS_USE_DEFAULT_SERVANT = poa.findVirtual(POA.class, "isUseDefaultServant", MethodType.methodType(boolean.class));
            SERVER_INTERCEPTORS = MethodHandles.privateLookupIn(InterceptorManager.class, MethodHandles.lookup())
                    .findVarHandle(InterceptorManager.class, "server_req_interceptors", Interceptor[].class);
            REQUEST_CONTROLLER = poa.findVirtual(POA.class, "getRequestController", MethodType.methodType(RequestController.class));
            POOL_MANAGER = MethodHandles.privateLookupIn(RequestController.class, MethodHandles.lookup())
                    .findVirtual(RequestController.class, "getPoolManager", MethodType.methodType(RPPoolManager.class));
            MethodHandles.Lookup pool = MethodHandles.privateLookupIn(RPPoolManager.class, MethodHandles.lookup());
            POOL_COUNT = pool.findVirtual(RPPoolManager.class, "getPoolCount", MethodType.methodType(int.class));
            POOL_SIZE = pool.findVirtual(RPPoolManager.class, "getPoolSize", MethodType.methodType(int.class));
            POOL_MAX = pool.findVarHandle(RPPoolManager.class, "max_pool_size", int.class);
            GET_PROCESSOR = pool.findVirtual(RPPoolManager.class, "getProcessor", MethodType.methodType(RequestProcessor.class));
            RELEASE_PROCESSOR = pool.findVirtual(RPPoolManager.class, "releaseProcessor",
                    MethodType.methodType(void.class, RequestProcessor.class));
            ROOT_POA = MethodHandles.privateLookupIn(org.jacorb.orb.ORB.class, MethodHandles.lookup())
                    .findVarHandle(org.jacorb.orb.ORB.class, "rootpoa", POA.class);
            ACTIVE_REQUESTS = MethodHandles.privateLookupIn(RequestController.class, MethodHandles.lookup())
                    .findVarHandle(RequestController.class, "activeRequestTable", java.util.HashSet.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError("JacORB's POA or InterceptorManager is not the expected 3.9: " + e);
        }
    }

    private JacorbPoaInternals() {
    }

    /** Loads this class now (see {@link DirectDispatch}'s constructor): its look-ups run once, here. */
    static void load() {
        // the static initialiser has run
    }

    /** The server request interceptors registered with {@code manager}. */
    static Interceptor[] serverInterceptors(InterceptorManager manager) {
        return (Interceptor[]) SERVER_INTERCEPTORS.get(manager);
    }

    /** The POA's USE_DEFAULT_SERVANT request processing policy. */
    static boolean isUseDefaultServant(POA poa) {
        try {
            return (boolean) IS_USE_DEFAULT_SERVANT.invokeExact(poa);
        } catch (Throwable e) {
            throw new IllegalStateException("JacORB's POA policies could not be read", e);
        }
    }

    /** The POA's SINGLE_THREAD_MODEL thread policy. */
    static boolean isSingleThreadModel(POA poa) {
        try {
            return (boolean) IS_SINGLE_THREAD_MODEL.invokeExact(poa);
        } catch (Throwable e) {
            throw new IllegalStateException("JacORB's POA policies could not be read", e);
        }
    }

    /**
     * The POA's pool of request processors. A servant run here holds one of them, unused, while it
     * runs: so {@code jacorb.poa.thread_pool_max} bounds the servants of a POA on both paths
     * together, and a request that finds the pool busy waits in the POA's queue, where JacORB's
     * {@code queue_max} and {@code threadtimeout} apply to it as to any other.
     */
    static RPPoolManager poolOf(POA poa) {
        try {
            return (RPPoolManager) POOL_MANAGER.invokeExact((RequestController) REQUEST_CONTROLLER.invokeExact(poa));
        } catch (Throwable e) {
            throw new IllegalStateException("JacORB's POA thread pool could not be read", e);
        }
    }

    /**
     * A processor of {@code pool} taken from it without waiting, or null when every one is busy (or
     * the pool failed to start one: JacORB's path then answers the request as JacORB does).
     */
    static RequestProcessor takeFreeProcessor(RPPoolManager pool) {
        try {
            synchronized (pool) { // the pool's own lock: its methods are synchronized on it
                int max = (int) POOL_MAX.get(pool);
                if ((int) POOL_COUNT.invokeExact(pool) == 0 && max > 0 && (int) POOL_SIZE.invokeExact(pool) >= max) {
                    return null;
                }
                return (RequestProcessor) GET_PROCESSOR.invokeExact(pool);
            }
        } catch (RuntimeException e) {
            return null;
        } catch (Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("JacORB's POA thread pool could not be used", e);
        }
    }

    /**
     * Forgets the object ids that the POAs of {@code orb} still count as running a request, when
     * none can be: call it only once every request the transport read has been answered. JacORB 3.9's
     * {@code RequestController} adds a request's object id to its active requests before it asks its
     * pool for a processor, and removes it only when a processor finishes the request; a request
     * whose pool answers {@code TIMEOUT} ({@code jacorb.poa.threadtimeout}) leaves its id behind.
     * Stock JacORB clears it at the next request to that object; with the direct path that request
     * may never come through the POA, and {@code POA.destroy(.., true)} would then wait for ever.
     * Never creates a root POA. Never throws: at worst the shutdown waits as JacORB's would.
     *
     * @return the ids forgotten
     */
    static int forgetFinishedRequests(org.jacorb.orb.ORB orb) {
        try {
            POA root = (POA) ROOT_POA.getVolatile(orb);
            return root == null ? 0 : forgetFinishedRequests(root);
        } catch (RuntimeException e) {
            LOG.warn("the POAs' active requests could not be checked before the shutdown", e);
            return 0;
        }
    }

    private static int forgetFinishedRequests(POA poa) {
        int forgotten = 0;
        RequestController controller;
        try {
            controller = (RequestController) REQUEST_CONTROLLER.invokeExact(poa);
        } catch (Throwable e) {
            throw new IllegalStateException("JacORB's POA request controller could not be read", e);
        }
        if (controller != null) {
            synchronized (controller) { // its own lock: its methods that read the table are synchronized on it
                java.util.HashSet<?> active = (java.util.HashSet<?>) ACTIVE_REQUESTS.get(controller);
                if (active != null && !active.isEmpty()) {
                    forgotten += active.size();
                    active.clear();
                    controller.notifyAll();
                }
            }
        }
        for (org.omg.PortableServer.POA child : poa.the_children()) {
            if (child instanceof POA jacorbChild) {
                forgotten += forgetFinishedRequests(jacorbChild);
            }
        }
        return forgotten;
    }

    /** Gives {@code processor}, taken by {@link #takeFreeProcessor}, back to {@code pool}. Never throws. */
    static void releaseProcessor(RPPoolManager pool, RequestProcessor processor) {
        try {
            RELEASE_PROCESSOR.invokeExact(pool, processor);
        } catch (Throwable e) {
            LOG.error("a request processor could not be given back to its POA's pool", e);
        }
    }
}
