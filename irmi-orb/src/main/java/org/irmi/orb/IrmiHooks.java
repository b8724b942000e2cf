package org.irmi.orb;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

import org.irmi.monitors.Clock;

/**
 * The hooks of one {@link IrmiORB}. Each hook is one volatile reference: setting it takes effect
 * for the next call, unsetting it (null) restores the plain ORB path at the cost of one read.
 *
 * <p>THREADING: every method may be called from any thread at any time.
 */
public final class IrmiHooks {

    /** ORB or system property: {@link #setCpuSampleEvery}. */
    public static final String CPU_SAMPLE_EVERY_PROPERTY = "irmi.cost.cpu_sample_every";
    /** Default of {@link #setCpuSampleEvery}. */
    public static final int DEFAULT_CPU_SAMPLE_EVERY = 16;
    /** How long a connection reads nothing before its next read counts as a stream becoming active. */
    public static final long STREAM_QUIET_MILLIS = 20;

    private volatile ClientCallHook clientCallHook;
    private volatile ServerRequestHook serverRequestHook;
    private volatile RequestCostListener requestCostListener;
    private volatile boolean measureCpuAndAllocation = true;
    private volatile int cpuSampleEvery = DEFAULT_CPU_SAMPLE_EVERY;
    private volatile String defaultStreamTag;
    private volatile MessageAssemblyListener messageAssemblyListener;
    private volatile Runnable streamActivityListener;
    private volatile Clock clock = Clock.system();
    private final List<ReplyContextProvider> replyContextProviders = new CopyOnWriteArrayList<>();
    private final List<ReplyContextListener> replyContextListeners = new CopyOnWriteArrayList<>();

    /**
     * Sets the clock the hooks time calls and requests with (elapsed nanoseconds of
     * {@link ClientCallHook#afterCall} and of {@link RequestCost}). The system clock by default;
     * the isolation glue sets the clock it was started with, so tests drive time by hand.
     */
    public void setClock(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The clock calls and requests are timed with; never null. */
    public Clock clock() {
        return clock;
    }

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
     * Whether the cost listener gets CPU time and allocated bytes (true, the default: allocation
     * for every request, CPU time as {@link #setCpuSampleEvery} samples it) or only elapsed time
     * (false: {@code cpuNanos} and {@code allocatedBytes} are -1).
     */
    public void setMeasureCpuAndAllocation(boolean measure) {
        this.measureCpuAndAllocation = measure;
    }

    /** See {@link #setMeasureCpuAndAllocation}. */
    public boolean measureCpuAndAllocation() {
        return measureCpuAndAllocation;
    }

    /**
     * How the dispatch thread's CPU time is sampled while {@link #measureCpuAndAllocation} is on
     * (allocation is read for every request; it costs little). A busy operation has one request in
     * {@code every} measured; an operation with no measured request in the last millisecond has
     * its next one measured, so rare requests are always measured. Unmeasured requests report
     * {@code cpuNanos} -1. 1 measures every request (two thread-CPU-clock reads, about 1 us each on
     * a virtual machine). Default {@value #DEFAULT_CPU_SAMPLE_EVERY}; ORB property
     * {@value #CPU_SAMPLE_EVERY_PROPERTY}.
     *
     * @throws IllegalArgumentException when {@code every} is below 1
     */
    public void setCpuSampleEvery(int every) {
        if (every < 1) {
            throw new IllegalArgumentException(CPU_SAMPLE_EVERY_PROPERTY + " must be at least 1, got " + every);
        }
        this.cpuSampleEvery = every;
    }

    /** See {@link #setCpuSampleEvery}. */
    public int cpuSampleEvery() {
        return cpuSampleEvery;
    }

    /**
     * Sets (or with null removes) the stream tag of every request this ORB sends, unless the
     * calling thread set its own with {@link StreamTag#use}. ORB property {@value StreamTag#PROPERTY}.
     *
     * @throws IllegalArgumentException when the tag is not valid ({@link StreamTag#requireValid})
     */
    public void setDefaultStreamTag(String tag) {
        this.defaultStreamTag = tag == null ? null : StreamTag.requireValid(tag);
    }

    /** The ORB's default stream tag, or null. */
    public String defaultStreamTag() {
        return defaultStreamTag;
    }

    /** The tag the next request of the calling thread carries, or null. */
    public String effectiveStreamTag() {
        return StreamTag.effective(defaultStreamTag);
    }

    /**
     * Sets (or with null removes) the listener told how long each request message took to
     * assemble. While none is set, the selector thread reads no extra clock per message.
     */
    public void setMessageAssemblyListener(MessageAssemblyListener listener) {
        this.messageAssemblyListener = listener;
    }

    /**
     * Sets (or with null removes) what runs when the set of active streams may have changed: a
     * connection was accepted, or one that had read nothing for {@link #STREAM_QUIET_MILLIS} reads
     * again. The crosstalk point uses it to recompute read budgets and receive buffers at once
     * instead of at its next periodic tick. Runs on the selector thread: it must only signal (for
     * example unpark a thread), never block.
     */
    public void setStreamActivityListener(Runnable listener) {
        this.streamActivityListener = listener;
    }

    /** The stream activity listener, or null. */
    public Runnable streamActivityListener() {
        return streamActivityListener;
    }

    /** The message assembly listener, or null. */
    public MessageAssemblyListener messageAssemblyListener() {
        return messageAssemblyListener;
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
