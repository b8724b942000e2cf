package org.irmi.orb;

/**
 * A snapshot of the selector transport's counters since it started. All counts are totals.
 *
 * @param openConnections        connections open now
 * @param acceptedConnections    connections accepted
 * @param refusedConnections     connections closed at once because {@code max_server_connections} (or, where set,
 *                               {@code server.max_receptor_threads}) was reached and no open connection could be shed
 * @param messagesRead           complete GIOP messages read (fragments reassembled count once)
 * @param bytesRead              bytes read from all connections
 * @param messageErrorsSent      MessageError replies sent for malformed input
 * @param oversizeRefused        messages refused because their declared size exceeded the maximum message size,
 *                               and requests declared larger than the inbound budget could hold (answered NO_MEMORY)
 * @param earlyRejections        requests answered on the reader thread by the server request hook
 * @param handoffRejections      requests answered TRANSIENT because the hand-off queue was full
 * @param cancelledRequests      requests dropped from the hand-off queue by CancelRequest
 * @param outboundOverflowCloses connections closed because their unsent replies exceeded the bound
 * @param idleCloses             connections closed (with CloseConnection) after being idle
 * @param stallCloses            connections closed because a message stayed incomplete too long
 * @param handoffQueueDepth      requests waiting in the hand-off queue now
 * @param budgetPauses           times a connection stopped being read because the inbound budget was short
 * @param budgetCloses           connections closed because the inbound budget was exceeded (largest holders)
 * @param inboundHeldBytes       bytes held now by partial messages, reassemblies and queued requests
 * @param inboundLimitBytes      the inbound budget ({@code irmi.transport.max_inbound_bytes})
 * @param readDeferrals          read turns a lighter connection waited behind a heavier one's message (read pacing)
 * @param acceptFailures         accepts that failed (out of file descriptors, usually); each stops accepting for 100 ms
 * @param sharePauses            times a connection stopped being read because it held its fair share of requests in flight
 * @param tlsHandshakes          TLS handshakes completed on the TLS port ({@code jacorb.security.support_ssl})
 * @param requestsInFlight       requests admitted now (handed to JacORB or on their way) and not finished, all
 *                               connections together; at most {@code irmi.transport.max_requests_in_flight}
 * @param requestsWaiting        requests read now and waiting for a slot among those in flight (dispatched in
 *                               fair order across connections, by cost)
 * @param requestsLimit          requests that may be in flight now: what keeps the cores busy, at most
 *                               {@code irmi.transport.max_requests_in_flight}
 * @param directRequests         requests whose servant a dispatch worker ran itself, without JacORB's POA queue
 *                               ({@code irmi.transport.direct_dispatch}); the others went through the POA
 * @param poaQueueRefusals       requests answered TRANSIENT because {@code jacorb.poa.queue_max} requests already waited
 *                               for a slot and {@code jacorb.poa.queue_wait} is off
 * @param poaThreadTimeouts      requests answered TIMEOUT because they waited {@code jacorb.poa.threadtimeout} for a slot
 * @param readerRuns             requests the reader thread started itself, at the end of its turn, instead of handing them
 *                               to a worker ({@code irmi.transport.inline_max_cost_us}): on the direct path, or handed
 *                               to JacORB where the direct path refused them
 * @param readerTakeovers        times a request run on the reader held it for a millisecond, and a new thread took
 *                               over the reading (requests then stop running on the reader for a back-off)
 * @param readerShared           requests the reader collected to run itself and handed to the workers instead, because
 *                               their turn collected too many for one thread ({@code irmi.transport.inline_share_at})
 * @param shedNeverCompleted     connections closed at a connection limit ({@code max_server_connections}, or accepts
 *                               failing for want of file descriptors) to make room for newcomers, because they had
 *                               never completed a message
 * @param shedStalled            ... because a message of theirs had stalled (nothing read for a second)
 * @param shedIdle               ... because they were idle ({@code irmi.transport.shed_idle_after_ms}); closed with
 *                               CloseConnection
 */
public record TransportStats(int openConnections, long acceptedConnections, long refusedConnections,
                             long messagesRead, long bytesRead, long messageErrorsSent,
                             long oversizeRefused, long earlyRejections, long handoffRejections,
                             long cancelledRequests, long outboundOverflowCloses, long idleCloses,
                             long stallCloses, int handoffQueueDepth, long budgetPauses, long budgetCloses,
                             long inboundHeldBytes, long inboundLimitBytes, long readDeferrals,
                             long acceptFailures, long sharePauses, long tlsHandshakes, int requestsInFlight,
                             int requestsWaiting, int requestsLimit, long directRequests,
                             long poaQueueRefusals, long poaThreadTimeouts, long readerRuns, long readerTakeovers,
                             long readerShared, long shedNeverCompleted, long shedStalled, long shedIdle) {
}
