package org.irmi.orb.internal;

import java.util.concurrent.atomic.LongAdder;

/** The selector transport's counters; written on the hot path, read by {@code stats()}. */
final class Counters {
    final LongAdder accepted = new LongAdder();
    final LongAdder refused = new LongAdder();
    final LongAdder acceptFailures = new LongAdder();
    final LongAdder messagesRead = new LongAdder();
    final LongAdder bytesRead = new LongAdder();
    final LongAdder messageErrors = new LongAdder();
    final LongAdder oversize = new LongAdder();
    final LongAdder earlyRejections = new LongAdder();
    final LongAdder handoffRejections = new LongAdder();
    final LongAdder poaQueueRefusals = new LongAdder();
    final LongAdder poaThreadTimeouts = new LongAdder();
    final LongAdder cancelled = new LongAdder();
    final LongAdder outboundOverflowCloses = new LongAdder();
    final LongAdder idleCloses = new LongAdder();
    final LongAdder stallCloses = new LongAdder();
    final LongAdder budgetPauses = new LongAdder();
    final LongAdder sharePauses = new LongAdder();
    final LongAdder budgetCloses = new LongAdder();
    final LongAdder tlsHandshakes = new LongAdder();
    /** Connections closed at a connection limit, by {@link ConnectionShedding.Reason}. */
    final LongAdder shedNeverCompleted = new LongAdder();
    final LongAdder shedStalled = new LongAdder();
    final LongAdder shedIdle = new LongAdder();
}
