package org.irmi.orb.internal;

import org.jacorb.orb.giop.RequestListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dispatch: hands the requests the selector has admitted to JacORB, through a bounded queue and
 * a pool of dispatch workers, or inline on the selector thread when {@code dispatch_threads} is 0.
 * A worker runs a request's servant itself when the direct path may take it ({@link DirectDispatch}),
 * so that the hand-off queue is the only queue between the reader and the servant.
 * A request cancelled while it waited is dropped; a request JacORB takes stays counted
 * ({@link RunningRequests}) until it finishes; a reply to one of this server's callbacks goes to
 * the connection's waiting thread.
 *
 * <p>THREADING: {@link #offer} and {@link #signal} on the selector thread only; the hand-off
 * itself runs on a dispatch worker (or on the selector thread, inline); {@link #depth} any thread.
 */
final class RequestDispatch {

    /** Logged under the loop's name, as before the transport was split into files. */
    private static final Logger LOG = LoggerFactory.getLogger(SelectorLoop.class);

    private final SelectorLoop loop;
    /** The dispatch workers' queue; null in inline mode ({@code dispatch_threads = 0}). */
    private final DispatchQueue<RequestAdmission.Task> queue;
    private final boolean directAllowed;
    private volatile RequestListener requestListener;
    /** Null: every request goes to JacORB's listener. */
    private volatile DirectDispatch direct;

    RequestDispatch(SelectorLoop loop, TransportConfig config) {
        this.loop = loop;
        // never on the selector thread: servant code may block
        this.directAllowed = config.directDispatch() && config.dispatchThreads() > 0;
        // workers that run servants: as many running as the in-flight limit says keep the cores busy
        int cores = Runtime.getRuntime().availableProcessors();
        this.queue = config.dispatchThreads() == 0 ? null : new DispatchQueue<>("irmi-dispatch",
                config.dispatchWorkers(), config.handoffQueueCapacity(),
                directAllowed ? () -> Math.max(cores, loop.admission.limit()) : null, this::dispatch);
    }

    /**
     * Requests go to {@code listener} from now on, or run on the direct path where it may take them.
     *
     * @param direct the direct path, or null for none (ignored in inline mode or with {@code direct_dispatch} off)
     */
    void start(RequestListener listener, DirectDispatch direct) {
        this.requestListener = listener;
        this.direct = directAllowed ? direct : null;
    }

    /**
     * Hands {@code t} to a dispatch worker, or to JacORB at once in inline mode. SELECTOR THREAD ONLY.
     *
     * @return false when the hand-off queue is full (the caller answers the request)
     */
    boolean offer(RequestAdmission.Task t) {
        return offer(t, true);
    }

    /**
     * Hands {@code t} to a dispatch worker, or runs it on the reader at the end of the turn when
     * {@code readerMay} and {@link InlineRuns} takes it, or to JacORB at once in inline mode. SELECTOR THREAD ONLY.
     *
     * @return false when the hand-off queue is full (the caller answers the request)
     */
    boolean offer(RequestAdmission.Task t, boolean readerMay) {
        if (queue == null) {
            // Inline mode (dispatch_threads = 0): JacORB parses the header and queues the request in
            // the POA; with queue_wait off that does not block, and no servant code runs here.
            dispatch(t);
            return true;
        }
        InboundConnection c = t.connection();
        boolean announced = surelyJacorbWay(t);
        if (readerMay && direct != null && !announced && t.type() == Giop.REQUEST && t.replyExpected()
                && c.giop.isTCSNegotiated() && !c.running.jacorbWayWaiting()
                && loop.inline.mayTake(t.costNanos(), c.pipelines)) {
            // a cheap request of a closed-loop connection, for the direct path: the reader runs it
            // at the end of this turn, without a worker's wake-up (InlineRuns). Not a connection's
            // first request: it negotiates code sets on JacORB's path, where a cold server's class
            // loading would hold the reader
            loop.inline.add(t);
            return true;
        }
        if (announced) {
            // before the connection's next request is handed on: that one must not overtake it
            c.running.announceJacorbWay();
        }
        if (t.type() == Giop.REQUEST && (announced || direct == null || c.running.jacorbWayWaiting())) {
            // it goes JacORB's way: it enters the POA's queue after the connection's earlier ones, as
            // they would from stock JacORB's one reader thread per connection
            t.laneTicket = c.lane().join();
        }
        if (!(t.ahead ? queue.offerFirst(t) : queue.offer(t))) {
            if (t.laneTicket != 0) {
                c.lane().unjoin(t.laneTicket);
                t.laneTicket = 0;
            }
            if (announced) {
                c.running.withdrawJacorbWay();
            }
            return false;
        }
        return true;
    }

    /**
     * Whether {@code t} is a request that goes JacORB's way whatever the direct path finds: a oneway,
     * or one of CORBA::Object's operations. The direct path can take other requests only, so this
     * matters only where it is allowed; decided from the header read at admission.
     */
    private boolean surelyJacorbWay(RequestAdmission.Task t) {
        return directAllowed && t.type() == Giop.REQUEST && (!t.replyExpected() || DirectDispatch.isObjectOperation(t.operation()));
    }

    /** Wakes the workers for what this turn handed on. SELECTOR THREAD ONLY. */
    void signal() {
        if (queue != null) {
            queue.signal();
        }
    }

    /** Requests whose servant a worker ran on the direct path. Any thread. */
    long directRequests() {
        DirectDispatch d = direct;
        return d == null ? 0 : d.taken();
    }

    /** True while the selector should wait at most 1 ms per turn, to wake workers for requests held up behind servants. */
    boolean needsWatch() {
        return queue != null && queue.needsWatch();
    }

    /** Requests waiting for a worker (0 in inline mode). Any thread. */
    int depth() {
        return queue == null ? 0 : queue.depth();
    }

    /** Stops the workers, waiting up to {@code timeoutMillis}. */
    void shutdown(long timeoutMillis) {
        if (queue != null) {
            queue.shutdown(timeoutMillis);
        }
    }

    /**
     * Runs on a dispatch worker, or on the reader for {@link InlineRuns}: runs one request on the
     * direct path, or hands it to JacORB.
     */
    void dispatch(RequestAdmission.Task t) {
        InboundConnection c = t.connection();
        boolean running = false;
        boolean announced = surelyJacorbWay(t);
        long ticket = t.laneTicket;
        try {
            if (ticket != 0 && !c.laneOfTicket().awaitTurn(ticket)) {
                LOG.debug("connection {}: a request went to JacORB out of turn after {} ms", c.id,
                        java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(HandOffLane.MAX_WAIT_NANOS));
            }
            if (t.requestId() != -1 && c.takeCancelled(t.requestId())) {
                loop.counters.cancelled.add(1);
                return;
            }
            if (c.isClosed()) {
                return;
            }
            if (t.type() == Giop.REQUEST) {
                // JacORB may queue it in the POA and run it later: its bytes stay counted until it
                // finishes. Held before the hand-off: a POA thread may finish it before this one returns.
                running = t.requestId() != -1
                        && c.running.holdUntilFinished(t.requestId(), t.message().length, loop.nanoTime(), t.replyExpected(),
                        t.costNanos(), announced);
                try {
                    DirectDispatch d = direct;
                    // the header was read at admission: oneways and CORBA::Object's operations, which the
                    // direct path never takes, go to JacORB without being parsed there first. While a
                    // request of this connection that went JacORB's way has not finished, the later ones
                    // follow it there, so they do not start before it (RunningRequests); those given a
                    // place in the lane go there in any case, in the lane's order (HandOffLane)
                    // A request that only follows (no direct path, a place in the lane, or an earlier
                    // request of the connection still on JacORB's way) does not hold the later ones back
                    // itself: under a steady load of overlapping two-ways on one connection (an application
                    // server's ORB calling its backend) each follower would keep the next one on JacORB's
                    // path, and the connection would never come back to the direct path. Only what went
                    // that way for a reason of its own (a refusal here, an announced oneway) holds them.
                    boolean follows = d == null || ticket != 0 || c.running.jacorbWayWaiting();
                    if (follows || !d.run(t.message(), c.giop)) {
                        if (running && !announced && !follows) {
                            c.running.goesJacorbWay(t.requestId());
                        }
                        requestListener.requestReceived(t.message(), c.giop);
                    }
                } catch (RuntimeException | Error e) {
                    if (running) {
                        c.requestFinished(t.requestId()); // released here, not again below
                    }
                    throw e;
                }
            } else if (t.type() == Giop.LOCATE_REQUEST) {
                requestListener.locateRequestReceived(t.message(), c.giop);
            } else if (!c.giop.replyReceived(t.message(), t.type() == Giop.LOCATE_REPLY)) {
                // a reply nobody waits for on a connection that carries no callbacks: as before
                // bi-directional GIOP, a protocol error
                loop.badInput.note("reply on connection {} from {}, which carries no callbacks", c.id, c.peerAddress);
                c.messageErrorAndClose(Giop.minor(t.message()));
            }
        } catch (RuntimeException e) {
            // JacORB answers every failure after it has parsed the request header itself, so an
            // exception escaping here means the header could not be read: malformed input. No
            // stack trace per message: a client could fill the log with them.
            loop.badInput.note("malformed request on connection {} from {}: {}", c.id, c.peerAddress, e.toString());
            c.messageErrorAndClose(Giop.minor(t.message()));
        } catch (Throwable e) {
            LOG.warn("dispatching a request failed", e);
        } finally {
            if (ticket != 0) {
                c.laneOfTicket().leave(ticket);
            }
            c.addInFlight(-1);
            if (announced && !running) {
                c.running.withdrawJacorbWay();
            }
            if (!running) {
                c.addQueuedBytes(-t.message().length);
                loop.budget.addQueued(-t.message().length);
            }
            if (t.counted() && (!running || !t.replyExpected())) {
                loop.admission.requestEnded(c); // else when its reply is written (or it is otherwise finished)
            }
        }
    }}
