package org.irmi.orb.internal;

import org.jacorb.orb.giop.RequestListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dispatch: hands the requests the selector has admitted to JacORB, through a bounded queue and
 * a pool of dispatch workers, or inline on the selector thread when {@code dispatch_threads} is 0.
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
    private volatile RequestListener requestListener;

    RequestDispatch(SelectorLoop loop, TransportConfig config) {
        this.loop = loop;
        this.queue = config.dispatchThreads() == 0 ? null : new DispatchQueue<>("irmi-dispatch",
                config.dispatchThreads(), config.handoffQueueCapacity(), this::dispatch);
    }

    /** Requests go to {@code listener} from now on. */
    void start(RequestListener listener) {
        this.requestListener = listener;
    }

    /**
     * Hands {@code t} to a dispatch worker, or to JacORB at once in inline mode. SELECTOR THREAD ONLY.
     *
     * @return false when the hand-off queue is full (the caller answers the request)
     */
    boolean offer(RequestAdmission.Task t) {
        if (queue == null) {
            // Inline mode (dispatch_threads = 0): JacORB parses the header and queues the request in
            // the POA; with queue_wait off that does not block, and no servant code runs here.
            dispatch(t);
            return true;
        }
        return queue.offer(t);
    }

    /** Wakes the workers for what this turn handed on. SELECTOR THREAD ONLY. */
    void signal() {
        if (queue != null) {
            queue.signal();
        }
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

    /** Runs on a dispatch worker: hands one request to JacORB. */
    private void dispatch(RequestAdmission.Task t) {
        InboundConnection c = t.connection();
        boolean running = false;
        try {
            if (t.requestId() != -1 && !c.cancelledIds.isEmpty() && c.cancelledIds.remove(t.requestId())) {
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
                        t.costNanos());
                try {
                    requestListener.requestReceived(t.message(), c.giop);
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
            c.inFlight.decrementAndGet();
            if (!running) {
                c.queuedBytes.addAndGet(-t.message().length);
                loop.budget.addQueued(-t.message().length);
            }
            if (t.counted() && (!running || !t.replyExpected())) {
                loop.admission.requestEnded(c); // else when its reply is written (or it is otherwise finished)
            }
        }
    }}
