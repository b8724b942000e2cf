package org.irmi.orb;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The hooks of one {@link IrmiORB}. Each hook is one volatile reference: setting it takes effect
 * for the next call, unsetting it (null) restores the plain ORB path at the cost of one read.
 *
 * <p>THREADING: every method may be called from any thread at any time.
 */
public final class IrmiHooks {

    private volatile ClientCallHook clientCallHook;
    private volatile ServerRequestHook serverRequestHook;
    private volatile RequestCostListener requestCostListener;
    private volatile boolean measureCpuAndAllocation = true;
    private final List<ReplyContextProvider> replyContextProviders = new CopyOnWriteArrayList<>();
    private final List<ReplyContextListener> replyContextListeners = new CopyOnWriteArrayList<>();

    /** Sets (or with null removes) the client call hook. */
    public void setClientCallHook(ClientCallHook hook) {
        this.clientCallHook = hook;
    }

    /** The client call hook, or null. */
    public ClientCallHook clientCallHook() {
        return clientCallHook;
    }

    /** Sets (or with null removes) the reader-thread request hook of this ORB's server side. */
    public void setServerRequestHook(ServerRequestHook hook) {
        this.serverRequestHook = hook;
    }

    /** The server request hook, or null. */
    public ServerRequestHook serverRequestHook() {
        return serverRequestHook;
    }

    /**
     * Sets (or with null removes) the per-request cost listener. While none is set, the dispatch
     * threads do not read the thread CPU and allocation counters.
     */
    public void setRequestCostListener(RequestCostListener listener) {
        this.requestCostListener = listener;
    }

    /**
     * Whether the cost listener gets CPU time and allocated bytes (true, the default: four
     * ThreadMXBean reads per request) or only elapsed time (false: {@code cpuNanos} and
     * {@code allocatedBytes} are -1).
     */
    public void setMeasureCpuAndAllocation(boolean measure) {
        this.measureCpuAndAllocation = measure;
    }

    /** See {@link #setMeasureCpuAndAllocation}. */
    public boolean measureCpuAndAllocation() {
        return measureCpuAndAllocation;
    }

    /** The request cost listener, or null. */
    public RequestCostListener requestCostListener() {
        return requestCostListener;
    }

    /** Adds a provider of a reply service context (server side). */
    public void addReplyContextProvider(ReplyContextProvider provider) {
        replyContextProviders.add(Objects.requireNonNull(provider, "provider"));
    }

    /** Removes a provider added before. */
    public void removeReplyContextProvider(ReplyContextProvider provider) {
        replyContextProviders.remove(provider);
    }

    /** The reply context providers (a live read-only view). */
    public List<ReplyContextProvider> replyContextProviders() {
        return replyContextProviders;
    }

    /** Adds a listener for a reply service context (client side). */
    public void addReplyContextListener(ReplyContextListener listener) {
        replyContextListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** Removes a listener added before. */
    public void removeReplyContextListener(ReplyContextListener listener) {
        replyContextListeners.remove(listener);
    }

    /** The reply context listeners (a live read-only view). */
    public List<ReplyContextListener> replyContextListeners() {
        return replyContextListeners;
    }
}
