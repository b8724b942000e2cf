package org.irmi.orb.internal;

import org.jacorb.config.Configuration;
import org.jacorb.config.ConfigurationException;

/**
 * The selector transport's settings, read once from the ORB configuration. Names, defaults and
 * units are documented in docs/orb.md.
 *
 * @param maxMessageBytes          largest message (after reassembly) accepted, header included
 * @param readBudgetBytes          default bytes read per connection per selector turn
 * @param soloReadBudgetBytes      bytes a connection may read in a turn in which it is the only
 *                                 readable one (its own budget when that is larger): a budget only
 *                                 shares the reader between connections that have data
 * @param acceptBacklog            listen backlog of the server socket
 * @param maxOutboundBytes         unsent reply bytes one connection may hold before it is closed
 * @param handoffQueueCapacity     requests the hand-off queue holds before answering TRANSIENT
 * @param dispatchThreads          workers draining the hand-off queue into JacORB; 0 = no queue, the
 *                                 reader thread hands requests to JacORB itself (opt-in, see docs/orb.md)
 * @param stallTimeoutMillis       how long a started message may stay incomplete
 * @param idleTimeoutMillis        idle time after which a connection is closed (0 = never)
 * @param maxFragmentedMessages    fragmented messages one connection may have in progress
 * @param maxServerConnections     connections served at once; further ones are closed at accept (0, as in
 *                                 JacORB: every connection is closed at accept). The lower of
 *                                 {@code jacorb.connection.max_server_connections} and, where it is set,
 *                                 {@code jacorb.connection.server.max_receptor_threads} (see {@link #from})
 * @param receiveBufferBytes       SO_RCVBUF of accepted connections (0 = system default)
 * @param sweepIntervalMillis      how often the reader checks for idle and stalled connections
 * @param maxInboundBytes          the transport-wide inbound memory budget (see {@code InboundBudget})
 * @param maxReadDeferMillis       longest a lighter connection's read waits behind a heavier connection's
 *                                 message once that one reads nothing; while it makes progress, this times
 *                                 the ratio of their read budgets (see {@code ReadPacer}); 0 turns pacing off
 * @param readPacingRequestCostBytes the least credit one read turn of a lighter connection costs while it
 *                                 waits behind a heavier connection's message (see {@code ReadPacer})
 * @param maxRequestsInFlight      requests in flight (admitted, not finished), all connections together, shared
 *                                 out fairly between the connections that hold some (see {@code RequestShare});
 *                                 requests read beyond it wait for a slot in fair order by cost across
 *                                 connections (see {@code FairScheduler}); default {@code jacorb.poa.thread_pool_max}
 * @param adaptRequestsInFlight    true to keep the requests in flight to what keeps the cores busy, at most
 *                                 {@code maxRequestsInFlight} (see {@code CoreLimit}); false: always {@code maxRequestsInFlight}
 * @param lightRequestsFirst       true (the default) to withhold the requests ready to start beyond what keeps the
 *                                 cores busy while requests of connections with nothing in flight arrive (latency
 *                                 for them before throughput for the pipelining connections; see
 *                                 {@code CoreLimit#onLightRequests}); false: always one per core ready
 * @param lightReserveCores        cores kept for the requests of connections with nothing in flight while they arrive
 *                                 (with {@code lightRequestsFirst}): the pipelining connections' requests then get the
 *                                 slots that keep the other cores busy, at least one (see {@code CoreLimit}); default 1
 *                                 (none on a machine of one core); 0: none kept, every core is theirs too
 * @param directDispatch           true (the default) to run a request's servant on the dispatch worker that takes it
 *                                 from the hand-off queue, when nothing the application sees depends on JacORB's POA
 *                                 queue (see {@code DirectDispatch}); false: every request goes through the POA's
 *                                 request controller and processor threads, as in stock JacORB
 * @param servantThreads           the most servants run at once: JacORB's {@code jacorb.poa.thread_pool_max}; with
 *                                 {@code directDispatch} the dispatch workers number
 *                                 {@code dispatchThreads + min(servantThreads, maxRequestsInFlight)}
 * @param poaQueue                 JacORB's POA queue settings, applied to the requests that wait in I-RMI for a slot
 *                                 (see {@code RequestAdmission}): with {@code maxRequestsInFlight} at its default, I-RMI's
 *                                 queue is where requests wait for a servant thread, not the POA's
 * @param inlineMaxCostMicros      with {@code directDispatch}: the requests of a closed-loop connection whose requests
 *                                 took at most this on average (from hand-off to reply) run on the reader thread, at the
 *                                 end of its turn, without a worker's wake-up; one that holds the reader 1 ms has a new
 *                                 thread take over the reading (see {@code InlineRuns}); 0: every request goes to a worker
 * @param inlineShareAt            with {@code inlineMaxCostMicros}: a turn that collected at least this many such requests
 *                                 is shared with the dispatch workers: the reader runs its share (one core's) and hands
 *                                 the rest on with one wake-up, so that one reader does not hold every such request to
 *                                 one core; 0: the reader runs them all
 * @param shedIdleAfterMillis      at a connection limit, a connection that completed a message and has had nothing
 *                                 partly read, in flight or unsent for this long may be shed (closed with
 *                                 CloseConnection) to serve a newcomer (see {@code ConnectionShedding}); one
 *                                 served more recently keeps its place
 */
public record TransportConfig(int maxMessageBytes, int readBudgetBytes, int soloReadBudgetBytes, int acceptBacklog,
                              int maxOutboundBytes, int handoffQueueCapacity, int dispatchThreads,
                              long stallTimeoutMillis, long idleTimeoutMillis, int maxFragmentedMessages,
                              int maxServerConnections, int receiveBufferBytes, long sweepIntervalMillis,
                              long maxInboundBytes,
                              long maxReadDeferMillis, int readPacingRequestCostBytes, int maxRequestsInFlight,
                              boolean adaptRequestsInFlight, boolean lightRequestsFirst, int lightReserveCores,
                              boolean directDispatch,
                              int servantThreads, PoaQueue poaQueue, int inlineMaxCostMicros, int inlineShareAt,
                              long shedIdleAfterMillis) {

    /**
     * JacORB's POA queue settings, as the POA reads them.
     *
     * @param max                 {@code jacorb.poa.queue_max}: requests that may wait; 0 or less, no limit
     * @param waitWhenFull        {@code jacorb.poa.queue_wait}: true, a request beyond {@code max} waits (here:
     *                            in its client's socket, see {@code RequestShare}); false, it is refused with
     *                            {@code TRANSIENT}
     * @param threadTimeoutMillis {@code jacorb.poa.threadtimeout}: how long a request may wait for a servant
     *                            thread before it is answered {@code TIMEOUT}; 0, for ever
     */
    public record PoaQueue(int max, boolean waitWhenFull, long threadTimeoutMillis) {
        /** JacORB's own defaults: 100, off, 0. */
        public static final PoaQueue JACORB_DEFAULTS = new PoaQueue(100, false, 0);

        public PoaQueue {
            atLeast("jacorb.poa.threadtimeout", threadTimeoutMillis, 0);
        }

        /** Whether a request that finds {@code waiting} requests already waiting is refused. */
        boolean refuses(int waiting) {
            return !waitWhenFull && max > 0 && waiting >= max;
        }
    }

    public static final String PREFIX = "irmi.transport.";
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
    public static final int DEFAULT_READ_BUDGET_BYTES = 256 * 1024;
    public static final int DEFAULT_SOLO_READ_BUDGET_BYTES = 256 * 1024;
    public static final int DEFAULT_ACCEPT_BACKLOG = 4096;
    public static final int DEFAULT_MAX_OUTBOUND_BYTES = 32 * 1024 * 1024;
    public static final int DEFAULT_HANDOFF_QUEUE_CAPACITY = 16384;
    public static final int DEFAULT_DISPATCH_THREADS = 2;
    public static final long DEFAULT_STALL_TIMEOUT_MILLIS = 30_000;
    public static final int DEFAULT_MAX_FRAGMENTED_MESSAGES = 64;
    public static final long DEFAULT_SWEEP_INTERVAL_MILLIS = 250;
    public static final long DEFAULT_MAX_READ_DEFER_MILLIS = 10;
    public static final int DEFAULT_READ_PACING_REQUEST_COST_BYTES = 128 * 1024;
    public static final boolean DEFAULT_ADAPT_REQUESTS_IN_FLIGHT = true;
    public static final boolean DEFAULT_LIGHT_REQUESTS_FIRST = true;
    public static final int DEFAULT_LIGHT_RESERVE_CORES = 1;
    public static final boolean DEFAULT_DIRECT_DISPATCH = true;
    public static final int DEFAULT_INLINE_MAX_COST_MICROS = 100;
    /** See {@code inlineShareAt}. */
    public static final int DEFAULT_INLINE_SHARE_AT = 32;
    /** See {@code shedIdleAfterMillis}. */
    public static final long DEFAULT_SHED_IDLE_AFTER_MILLIS = 10_000;
    /** JacORB's key for the connections a server serves at once. */
    public static final String MAX_SERVER_CONNECTIONS = "jacorb.connection.max_server_connections";
    /** JacORB's key for its server's reader threads, one per connection (bugjac460). */
    public static final String MAX_RECEPTOR_THREADS = "jacorb.connection.server.max_receptor_threads";
    /** JacORB's own default of {@code jacorb.poa.thread_pool_max}. */
    static final int JACORB_THREAD_POOL_MAX = 20;

    public TransportConfig {
        atLeast(PREFIX + "max_message_bytes", maxMessageBytes, 12);
        atLeast(PREFIX + "read_budget_bytes", readBudgetBytes, 1);
        atLeast(PREFIX + "solo_read_budget_bytes", soloReadBudgetBytes, 1);
        atLeast(PREFIX + "accept_backlog", acceptBacklog, 1);
        atLeast(PREFIX + "max_outbound_bytes", maxOutboundBytes, 1);
        atLeast(PREFIX + "handoff_queue_capacity", handoffQueueCapacity, 1);
        atLeast(PREFIX + "dispatch_threads", dispatchThreads, 0);
        atLeast(PREFIX + "stall_timeout_ms", stallTimeoutMillis, 1);
        atLeast(PREFIX + "idle_timeout_ms", idleTimeoutMillis, 0);
        atLeast(PREFIX + "max_fragmented_messages", maxFragmentedMessages, 1);
        atLeast(MAX_SERVER_CONNECTIONS, maxServerConnections, 0);
        atLeast(PREFIX + "receive_buffer_bytes", receiveBufferBytes, 0);
        atLeast(PREFIX + "sweep_interval_ms", sweepIntervalMillis, 1);
        atLeast(PREFIX + "max_inbound_bytes", maxInboundBytes, 1);
        atLeast(PREFIX + "max_read_defer_ms", maxReadDeferMillis, 0);
        atLeast(PREFIX + "read_pacing_request_cost_bytes", readPacingRequestCostBytes, 1);
        atLeast(PREFIX + "max_requests_in_flight", maxRequestsInFlight, 1);
        atLeast(PREFIX + "light_reserve_cores", lightReserveCores, 0);
        atLeast("jacorb.poa.thread_pool_max", servantThreads, 1);
        atLeast(PREFIX + "inline_max_cost_us", inlineMaxCostMicros, 0);
        atLeast(PREFIX + "inline_share_at", inlineShareAt, 0);
        atLeast(PREFIX + "shed_idle_after_ms", shedIdleAfterMillis, 0);
    }

    /**
     * The dispatch workers to start: {@code dispatchThreads}, or with {@code directDispatch}, where they
     * run servants, one more for every request the limits let run at once. So {@code dispatchThreads}
     * stay free when every admitted request's servant blocks, for what is not a request: replies to
     * callbacks sent over bi-directional connections, which such servants may be waiting for. 0 in
     * inline mode.
     */
    int dispatchWorkers() {
        if (dispatchThreads == 0 || !directDispatch) {
            return dispatchThreads;
        }
        return dispatchThreads + Math.min(servantThreads, maxRequestsInFlight);
    }

    /** {@code key} is the property's whole name, as the user wrote it. */
    private static void atLeast(String key, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(key + " must be >= " + min + " but is " + value);
        }
    }

    /**
     * The integer the user set for {@code key} (ORB properties, system properties, a
     * {@code jacorb.properties} or {@code custom.props} file), or {@code unset} when none did.
     *
     * <p>Not {@code getAttributeAsInteger(key, unset)}: JacORB's configuration remembers the default
     * that its first reader passed and answers it to every later reader, as if it had been set (JacORB's
     * {@code MessageReceptorPool} reads {@code server.max_receptor_threads} with 1,000 before the
     * transport reads its settings). What the user set is kept as text and
     * {@link Configuration#isAttributeSet} looks only there. A blank value counts as unset, as JacORB reads it.
     */
    static int userInteger(Configuration c, String key, int unset) throws ConfigurationException {
        String text = c.isAttributeSet(key) ? c.getAttribute(key, "") : "";
        if (text.isBlank()) {
            return unset;
        }
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new ConfigurationException("value for attribute " + key + " is not numeric: " + text);
        }
    }

    /**
     * Reads the settings, falling back to the defaults above.
     *
     * <p>{@code jacorb.connection.server.max_receptor_threads}: stock JacORB gives every accepted
     * connection a receptor thread of its own for the connection's life, and closes a connection
     * for which its pool has no thread left ({@code NO_RESOURCES} at accept). So the key bounds the
     * connections a JacORB server serves at once, and that is the meaning it has here, where one
     * selector thread reads every connection: it lowers {@code maxServerConnections}. Unset, it
     * does not apply (JacORB's default of 1,000 threads is not imposed on the selector transport).
     * "Unset" is read from what the user gave (see {@link #userInteger}), not from the value JacORB
     * answers: JacORB's own server reads the key with its default of 1,000, and its configuration
     * then answers 1,000 to every later reader.
     */
    public static TransportConfig from(Configuration c) throws ConfigurationException {
        int jacorbIdle = c.getAttributeAsInteger("jacorb.connection.server.timeout", 0);
        int maxServerConnections = userInteger(c, MAX_SERVER_CONNECTIONS, Integer.MAX_VALUE);
        int maxReceptorThreads = userInteger(c, MAX_RECEPTOR_THREADS, Integer.MAX_VALUE);
        atLeast(MAX_RECEPTOR_THREADS, maxReceptorThreads, 0);
        int servantThreads = c.getAttributeAsInteger("jacorb.poa.thread_pool_max", JACORB_THREAD_POOL_MAX);
        return new TransportConfig(
                c.getAttributeAsInteger(PREFIX + "max_message_bytes", DEFAULT_MAX_MESSAGE_BYTES),
                c.getAttributeAsInteger(PREFIX + "read_budget_bytes", DEFAULT_READ_BUDGET_BYTES),
                c.getAttributeAsInteger(PREFIX + "solo_read_budget_bytes", DEFAULT_SOLO_READ_BUDGET_BYTES),
                c.getAttributeAsInteger(PREFIX + "accept_backlog", DEFAULT_ACCEPT_BACKLOG),
                c.getAttributeAsInteger(PREFIX + "max_outbound_bytes", DEFAULT_MAX_OUTBOUND_BYTES),
                c.getAttributeAsInteger(PREFIX + "handoff_queue_capacity", DEFAULT_HANDOFF_QUEUE_CAPACITY),
                c.getAttributeAsInteger(PREFIX + "dispatch_threads", DEFAULT_DISPATCH_THREADS),
                c.getAttributeAsLong(PREFIX + "stall_timeout_ms", DEFAULT_STALL_TIMEOUT_MILLIS),
                c.getAttributeAsLong(PREFIX + "idle_timeout_ms", jacorbIdle),
                c.getAttributeAsInteger(PREFIX + "max_fragmented_messages", DEFAULT_MAX_FRAGMENTED_MESSAGES),
                Math.min(maxServerConnections, maxReceptorThreads),
                c.getAttributeAsInteger(PREFIX + "receive_buffer_bytes", 0),
                c.getAttributeAsLong(PREFIX + "sweep_interval_ms", DEFAULT_SWEEP_INTERVAL_MILLIS),
                c.getAttributeAsLong(PREFIX + "max_inbound_bytes",
                        InboundBudget.defaultLimit(Runtime.getRuntime().maxMemory())),
                c.getAttributeAsLong(PREFIX + "max_read_defer_ms", DEFAULT_MAX_READ_DEFER_MILLIS),
                c.getAttributeAsInteger(PREFIX + "read_pacing_request_cost_bytes", DEFAULT_READ_PACING_REQUEST_COST_BYTES),
                c.getAttributeAsInteger(PREFIX + "max_requests_in_flight", Math.max(1, servantThreads)),
                c.getAttributeAsBoolean(PREFIX + "adapt_requests_in_flight", DEFAULT_ADAPT_REQUESTS_IN_FLIGHT),
                c.getAttributeAsBoolean(PREFIX + "light_requests_first", DEFAULT_LIGHT_REQUESTS_FIRST),
                c.getAttributeAsInteger(PREFIX + "light_reserve_cores", DEFAULT_LIGHT_RESERVE_CORES),
                c.getAttributeAsBoolean(PREFIX + "direct_dispatch", DEFAULT_DIRECT_DISPATCH),
                Math.max(1, servantThreads),
                new PoaQueue(c.getAttributeAsInteger("jacorb.poa.queue_max", PoaQueue.JACORB_DEFAULTS.max()),
                        c.getAttributeAsBoolean("jacorb.poa.queue_wait", PoaQueue.JACORB_DEFAULTS.waitWhenFull()),
                        c.getAttributeAsLong("jacorb.poa.threadtimeout", PoaQueue.JACORB_DEFAULTS.threadTimeoutMillis())),
                c.getAttributeAsInteger(PREFIX + "inline_max_cost_us", DEFAULT_INLINE_MAX_COST_MICROS),
                c.getAttributeAsInteger(PREFIX + "inline_share_at", DEFAULT_INLINE_SHARE_AT),
                c.getAttributeAsLong(PREFIX + "shed_idle_after_ms", DEFAULT_SHED_IDLE_AFTER_MILLIS));
    }
}
