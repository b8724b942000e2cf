package org.irmi.orb.internal;

/**
 * How many requests may be in flight: as many as keep the server's cores busy, and no more
 * (Little's law), never more than the configured maximum.
 *
 * <p>Why: every request in flight beyond what the cores can run waits for a core, and a core is
 * shared out by the operating system among all runnable threads alike. A client's one small request
 * then runs beside every request of the clients that pipeline many, and takes as many times longer
 * as there are (in the hostile-clients benchmark: 9 to 28 requests on 2 cores). A request that waits
 * instead in I-RMI's {@link FairScheduler} goes ahead of the pipelined ones. A fixed small limit
 * would starve servants that block (a database call, a lock): they need many requests in flight to
 * keep a core busy.
 *
 * <p>How: a sampled request reports its time on a core ({@code cpu}, its servant thread's CPU clock)
 * and its time from start to end minus the time it waited for a core ({@code active = cpu + blocked};
 * the wait from the thread's scheduler statistics, {@link ThreadSchedStat}). Per window (a sweep of the selector):
 * <pre>
 *   needed = cores * sum(active) / sum(cpu)      requests that keep the cores busy
 *   limit  = clamp(ceil(needed) + ready, cores, max)
 *   ready  = cores, or 0 in a window after one in which a light request arrived
 * </pre>
 * CPU-bound requests give {@code needed = cores}; a request that blocks 10 ms for 20 us of CPU gives
 * {@code 500 * cores}, so the configured maximum. The {@code ready}: one more request per core
 * ready to start, so a core does not idle while the next request is handed on. It buys throughput
 * for the connections that pipeline requests (each core's hand-off gap is hidden) and costs latency
 * to everyone else: a <em>light</em> request, from a connection with nothing in flight, never waits
 * for a slot, but it then runs beside every request admitted, on the same cores. So while light
 * requests arrive ({@link #onLightRequests}, counted per window) the surplus is withheld and the
 * pipelining connections get exactly the requests that keep the cores busy; with none in the last
 * window (only pipelining clients, nobody to protect) it is given back. In the hostile-clients
 * benchmark this moved the well-behaved client's p99 under attack from 2.6 - 2.9x of its quiet p99
 * to 1.5 - 1.9x, for about half the flood replies (docs/benchmarks/hostile-clients.md). With {@code reserveCores}
 * set ({@code irmi.transport.light_reserve_cores}), the light requests get more than the surplus:
 * while light requests of closed-loop connections (never two requests in flight) arrive beside
 * requests waiting for a slot, the pipelining connections get only the slots that keep the other cores busy,
 * {@code ceil(needed * (cores - reserveCores) / cores)}, at least one, so a light request finds a
 * core that no admitted request holds instead of sharing one with them by the operating system's
 * time slices. That costs the pipelining connections up to {@code reserveCores / cores} of their
 * throughput while light requests arrive (1 by default, so on 2 cores half; 0 turns it off). Time spent waiting for
 * a core is left out on purpose: counted as blocking, it would raise the limit the more the cores are
 * oversubscribed. A window with fewer than {@link #MIN_SAMPLES} samples changes nothing (its
 * samples wait for the next one); without samples (no scheduler statistics on this platform) the
 * limit stays the maximum. A window in which requests waited and none ended ({@link #onStalled})
 * sets the maximum: the requests in flight are blocked (a servant waiting for a request that waits
 * for a slot, say), so running more cannot take a core from anyone.
 *
 * <p>Pure: samples arrive as numbers, no clock, no I/O. THREADING: {@link #onWindow},
 * {@link #onLightRequests} and {@link #onStalled} from one thread (the selector's sweep); {@link #limit} from any.
 */
final class CoreLimit {

    /** Samples a window needs before it moves the limit. */
    static final int MIN_SAMPLES = 16;

    private final int cores;
    private final int maxLimit;
    /** Cores kept for light requests while they arrive, {@code 0 .. cores - 1}. */
    private final int reserveCores;
    private volatile int limit;
    /** Only one connection calls: the limit is lifted to the maximum ({@link #onAlone}). */
    private volatile boolean alone;
    /** {@code ceil(needed)} of the last window used, or -1 before one (the limit is then the maximum). */
    private long needed = -1;
    private boolean lightRequestsSeen;
    /** A closed-loop connection's request arrived while others' requests waited, in the last window. */
    private boolean reserveWanted;

    /**
     * @param cores    the cores the servants run on ({@code >= 1})
     * @param maxLimit the configured maximum ({@code irmi.transport.max_requests_in_flight}, {@code >= 1})
     */
    CoreLimit(int cores, int maxLimit) {
        this(cores, maxLimit, 0);
    }

    /**
     * @param cores        the cores the servants run on ({@code >= 1})
     * @param maxLimit     the configured maximum ({@code irmi.transport.max_requests_in_flight}, {@code >= 1})
     * @param reserveCores cores kept for light requests while they arrive ({@code irmi.transport.light_reserve_cores},
     *                     {@code >= 0}); at most {@code cores - 1} are kept, whatever is asked
     */
    CoreLimit(int cores, int maxLimit, int reserveCores) {
        if (cores < 1) {
            throw new IllegalArgumentException("cores must be >= 1 but is " + cores);
        }
        if (maxLimit < 1) {
            throw new IllegalArgumentException("maxLimit must be >= 1 but is " + maxLimit);
        }
        if (reserveCores < 0) {
            throw new IllegalArgumentException("reserveCores must be >= 0 but is " + reserveCores);
        }
        this.cores = cores;
        this.maxLimit = maxLimit;
        this.reserveCores = Math.min(reserveCores, cores - 1);
        this.limit = maxLimit;
    }

    /** Requests that may be in flight now. Any thread. */
    int limit() {
        return alone ? maxLimit : limit;
    }

    /**
     * Whether one connection alone calls (nothing of another in flight or waiting, and no other
     * connection's request in the last window): the limit is then the maximum. Takes effect at once.
     */
    void onAlone(boolean alone) {
        this.alone = alone;
    }

    /** @return whether the limit is lifted because one connection alone calls */
    boolean alone() {
        return alone;
    }

    int maxLimit() {
        return maxLimit;
    }

    /** A window in which requests waited for a slot and none of those in flight ended: the maximum. */
    void onStalled() {
        needed = -1;
        limit = maxLimit;
    }

    /**
     * How many light requests (from a connection with nothing in flight, so never waiting for a
     * slot) arrived in the window that just ended: with any, the next windows' limits have no
     * requests ready to start beyond those that keep the cores busy, until a window without.
     * Of those, {@code closedLoopBesideWaiting} came from connections that never had two requests in
     * flight, while other connections' requests waited for a slot: with any, the reserved cores are
     * kept for them. A connection that pipelines or multiplexes its requests (an app server's ORB
     * calling from many threads over one connection) is light whenever it has drained, and does not
     * take cores from itself or from its peers. Takes effect at once on the current limit.
     */
    void onLightRequests(long count, long closedLoopBesideWaiting) {
        lightRequestsSeen = count > 0;
        reserveWanted = closedLoopBesideWaiting > 0;
        if (needed >= 0) {
            apply();
        }
    }

    /** Requests per core ready to start beyond those that keep the cores busy: {@code cores} or 0. */
    int ready() {
        return lightRequestsSeen ? 0 : cores;
    }

    /**
     * One window's samples, summed.
     *
     * @param activeNanos sum over the samples of (end - start - time waiting for a core)
     * @param cpuNanos    sum over the samples of the time on a core
     * @param samples     how many requests were sampled
     * @return true when the window was used (false: too few samples, keep summing)
     */
    boolean onWindow(long activeNanos, long cpuNanos, int samples) {
        if (samples < MIN_SAMPLES) {
            return false;
        }
        if (cpuNanos <= 0) {
            needed = -1;
            limit = maxLimit; // blocked throughout (or a clock too coarse to see the CPU): as blocking servants need
            return true;
        }
        needed = (long) Math.ceil(cores * ((double) Math.max(activeNanos, cpuNanos) / cpuNanos));
        apply();
        return true;
    }

    private void apply() {
        long target = needed + ready();
        long floor = cores;
        if (reserveWanted && reserveCores > 0) {
            int kept = cores - reserveCores;
            target = Math.max(1, (needed * kept + cores - 1) / cores); // the other cores' share of what is needed
            floor = kept;
        }
        limit = (int) Math.max(Math.min(floor, maxLimit), Math.min(maxLimit, target));
    }
}
