package org.irmi.orb;

import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Micrometer meters of an I-RMI transport, named {@code irmi.transport.*}. Gauges and function
 * counters read {@link IrmiTransport#stats()} when scraped; nothing is done per request. No
 * per-connection or per-client tags. A meter's unit is its base unit unless its name already says it
 * ({@link #IN_NAME}), so that no exported name repeats a word.
 */
public final class TransportMetrics implements MeterBinder {

    /**
     * The unit of a meter whose name already says what it counts ({@code connections.accepted}):
     * none, or Prometheus would append it again ({@code irmi_transport_connections_accepted_connections_total}).
     */
    private static final String IN_NAME = null;

    private final IrmiTransport transport;

    public TransportMetrics(IrmiTransport transport) {
        this.transport = transport;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        gauge(registry, "irmi.transport.connections.open", "server connections open now", IN_NAME,
                s -> s.openConnections());
        gauge(registry, "irmi.transport.handoff.depth", "requests waiting in the hand-off queue", "requests",
                s -> s.handoffQueueDepth());
        gauge(registry, "irmi.transport.requests.in_flight", "requests admitted and not finished, all connections",
                IN_NAME, s -> s.requestsInFlight());
        gauge(registry, "irmi.transport.requests.waiting", "requests read and waiting for a slot (fair order by cost)",
                IN_NAME, s -> s.requestsWaiting());
        gauge(registry, "irmi.transport.requests.limit", "requests that may be in flight now (what keeps the cores busy)",
                IN_NAME, s -> s.requestsLimit());
        gauge(registry, "irmi.transport.inbound.held", "bytes held by partial messages, reassemblies and queued requests",
                "bytes", s -> s.inboundHeldBytes());
        gauge(registry, "irmi.transport.inbound.limit", "the inbound memory budget", "bytes",
                s -> s.inboundLimitBytes());
        counter(registry, "irmi.transport.inbound.pauses", "connections paused: inbound budget short", "connections",
                s -> s.budgetPauses());
        counter(registry, "irmi.transport.requests.share_pauses",
                "connections paused: they held their fair share of requests in flight", "connections",
                s -> s.sharePauses());
        counter(registry, "irmi.transport.closes.inbound_budget", "connections closed: inbound budget exceeded",
                "connections", s -> s.budgetCloses());
        counter(registry, "irmi.transport.connections.accepted", "connections accepted", IN_NAME,
                s -> s.acceptedConnections());
        counter(registry, "irmi.transport.connections.refused",
                "connections refused at max_server_connections or max_receptor_threads: none could be shed",
                IN_NAME, s -> s.refusedConnections());
        String shed = "irmi.transport.connections.shed";
        String shedWhat = "connections closed at a connection limit (max_server_connections, out of file descriptors) "
                + "to serve newcomers, by reason";
        counter(registry, shed, shedWhat, IN_NAME, s -> s.shedNeverCompleted(), "reason", "never_completed");
        counter(registry, shed, shedWhat, IN_NAME, s -> s.shedStalled(), "reason", "stalled");
        counter(registry, shed, shedWhat, IN_NAME, s -> s.shedIdle(), "reason", "idle");
        counter(registry, "irmi.transport.messages.read", "complete GIOP messages read", IN_NAME,
                s -> s.messagesRead());
        counter(registry, "irmi.transport.bytes.read", "bytes read from all connections", IN_NAME,
                s -> s.bytesRead());
        counter(registry, "irmi.transport.message.errors", "MessageError replies sent for malformed input",
                IN_NAME, s -> s.messageErrorsSent());
        counter(registry, "irmi.transport.oversize", "messages refused for their declared size", "messages",
                s -> s.oversizeRefused());
        counter(registry, "irmi.transport.early.replies", "requests answered on the reader thread by the hook",
                "requests", s -> s.earlyRejections());
        counter(registry, "irmi.transport.handoff.rejections", "requests answered TRANSIENT: hand-off queue full",
                "requests", s -> s.handoffRejections());
        counter(registry, "irmi.transport.poa_queue.rejections",
                "requests answered TRANSIENT: jacorb.poa.queue_max requests already waited (queue_wait off)",
                "requests", s -> s.poaQueueRefusals());
        counter(registry, "irmi.transport.poa_queue.timeouts",
                "requests answered TIMEOUT: they waited jacorb.poa.threadtimeout for a slot", "requests",
                s -> s.poaThreadTimeouts());
        counter(registry, "irmi.transport.cancelled", "queued requests dropped by CancelRequest", "requests",
                s -> s.cancelledRequests());
        counter(registry, "irmi.transport.direct", "requests whose servant a dispatch worker ran without the POA queue",
                "requests", s -> s.directRequests());
        counter(registry, "irmi.transport.reader.runs", "requests the reader thread ran itself instead of handing them to a worker",
                "requests", s -> s.readerRuns());
        counter(registry, "irmi.transport.reader.takeovers",
                "a request held the reader thread 1 ms: a new thread took over the reading", IN_NAME,
                s -> s.readerTakeovers());
        counter(registry, "irmi.transport.reader.shared",
                "requests the reader collected to run itself and handed to the workers: their turn had too many for one thread",
                "requests", s -> s.readerShared());
        counter(registry, "irmi.transport.closes.outbound_overflow", "connections closed: unread replies over the bound",
                "connections", s -> s.outboundOverflowCloses());
        counter(registry, "irmi.transport.closes.idle", "connections closed after idling", "connections",
                s -> s.idleCloses());
        counter(registry, "irmi.transport.read.deferrals", "read turns a lighter connection waited behind a heavier one",
                "turns", s -> s.readDeferrals());
        counter(registry, "irmi.transport.closes.stall", "connections closed: message stalled", "connections",
                s -> s.stallCloses());
        counter(registry, "irmi.transport.accept.failures", "accepts that failed (out of file descriptors): connections shed, or accepting paused 100 ms",
                IN_NAME, s -> s.acceptFailures());
    }

    private void gauge(MeterRegistry r, String name, String description, String unit,
                       ToDoubleFunction<TransportStats> f) {
        Gauge.builder(name, transport, t -> f.applyAsDouble(t.stats())).description(description).baseUnit(unit)
                .register(r);
    }

    /** {@code tags}: alternating key/value pairs, from a fixed set (bounded). */
    private void counter(MeterRegistry r, String name, String description, String unit,
                         ToDoubleFunction<TransportStats> f, String... tags) {
        FunctionCounter.builder(name, transport, t -> f.applyAsDouble(t.stats())).description(description)
                .baseUnit(unit).tags(tags).register(r);
    }
}
