package org.irmi.it;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/** The servant of {@link Trade}. */
public class TradeImpl implements Trade {
    final String name;
    final AtomicLong quotes = new AtomicLong();
    final AtomicLong delivered = new AtomicLong();
    /** When each delivery completed here ({@link System#nanoTime}). */
    final java.util.Queue<Long> deliveredAt = new java.util.concurrent.ConcurrentLinkedQueue<>();
    /** When the event of each sequence number ({@link PrimaryImpl#sequence}) was delivered here. */
    final java.util.Map<Long, Long> deliveredBySequence = new java.util.concurrent.ConcurrentHashMap<>();
    final AtomicLong poisons = new AtomicLong();
    final AtomicLong smallEvents = new AtomicLong();
    /** While &gt; 0, each delivery takes this long (a secondary slowed by stress elsewhere). */
    volatile long slowNanos;

    TradeImpl(String name) {
        this.name = name;
    }

    @Override
    public String quote(String symbol) {
        quotes.incrementAndGet();
        return symbol + "@" + (100 + symbol.length());
    }

    @Override
    public int buy(String symbol, int quantity) {
        return quantity * (100 + symbol.length());
    }

    @Override
    public long poison(long millis) {
        poisons.incrementAndGet();
        long end = System.nanoTime() + millis * 1_000_000L;
        byte[][] retained = new byte[3200][]; // ~32 MB kept live, as a request holding its data
        long n = 0;
        while (System.nanoTime() < end) {
            retained[(int) (n++ % retained.length)] = new byte[10 * 1024];
        }
        return n;
    }

    @Override
    public int deliver(byte[] event) {
        long slow = slowNanos;
        if (slow > 0) {
            // the secondary's own machine is stressed; parking models its slowness without
            // starving the primary, which shares this JVM and this 2-core machine
            LockSupport.parkNanos(slow);
        }
        long now = System.nanoTime();
        delivered.incrementAndGet();
        deliveredAt.add(now);
        deliveredBySequence.put(PrimaryImpl.sequence(event), now);
        if (event.length <= 1024) {
            smallEvents.incrementAndGet();
        }
        return event.length;
    }

    @Override
    public int bulk(byte[] payload) {
        return payload == null ? 0 : payload.length; // null: CrosstalkEndToEndTest's prebuilt requests
    }
}
