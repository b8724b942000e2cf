package org.irmi.orb.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Makes read budgets act between turns, not only inside one: a deficit round robin between a
 * connection that is in the middle of a message and the lighter connections (smaller read budget,
 * that is a lighter crosstalk weight) that compete with it.
 *
 * <p>While a heavier connection is mid-message, each read turn of a lighter connection costs it
 * the bytes it read, and every message it completed costs at least {@code requestCostBytes}
 * (a 2 KB request costs 128 KiB by default; a 256 KB one costs its bytes). It earns
 * {@code lightBudget / heavyBudget} of every byte the heaviest mid-message connection reads, in
 * every turn, whether it is deferred or reading (only the heaviest: a stream behind two heavier ones
 * is not credited twice), up to {@code requestCostBytes} of credit saved. A lighter connection in
 * debt is not read: its OP_READ interest is off, so the selector does not wake for it and the
 * heavier connection reads alone (with the solo budget). Streams of large messages thus share the
 * reader in the ratio of their budgets; with weights 8:1, a 2 KB stream gets one request read per
 * MiB of the large request, at 2:1 four.
 *
 * <p>Why a least cost per request, not bytes alone: a small request costs the server far more CPU
 * than its bytes (parsing, hand-off, dispatch, the reply; and its client's CPU), on the same cores
 * as the reader. A byte share of 1/9 still lets a stream of 2 KB requests through at full rate.
 *
 * <p>Bounds: a deferred connection is read again (its debt forgiven) as soon as no heavier
 * connection is mid-message; once the heaviest mid-message connection has read nothing for
 * {@code maxDeferNanos} (a stalled heavy client), after {@code maxDeferNanos}; and in any case after
 * {@code maxDeferNanos * heavyBudget / lightBudget}, so a heavy client that trickles its bytes cannot
 * starve the others either. The last bound scales with the weights on purpose: while the heavy
 * stream makes progress, its weight, not the bound, decides the share. A flat bound did not: with
 * weights 8 against four streams sharing 1 (budgets 128 KiB against 4 KiB), a 10 ms bound read
 * each 2 KB stream every 10 ms, about a sixth of a 100 Mbit/s link, where its weight earned it one
 * request per 4 MiB of the large one (the crosstalk experiment's 1.20x with four streams). When every
 * connection has the same budget nothing is ever deferred.
 *
 * <p>SELECTOR THREAD ONLY.
 */
final class ReadPacer {

    private final long maxDeferNanos;
    private final long requestCostBytes;
    /** Connections with a partly read message. Few: a list beats a set here. */
    private final List<InboundConnection> assembling = new ArrayList<>();
    private final List<InboundConnection> deferred = new ArrayList<>();
    /** Lighter connections charged for their reads while a heavier one is mid-message: they earn credit. */
    private final List<InboundConnection> contenders = new ArrayList<>();
    /**
     * The two largest budgets among the mid-message connections, and whose the largest is: asked for
     * every readable connection, so kept here instead of scanning the list each time (with many
     * connections mid-message a scan per key would make a turn quadratic). Recomputed once per turn and
     * when the largest leaves the list; an addition updates them at once.
     */
    private int top1;
    private int top2;
    private InboundConnection top1Connection;
    /** The heaviest mid-message connection read bytes in the current turn. */
    private boolean heaviestReadThisTurn;
    /** When the heaviest mid-message connection last read bytes (end of that turn). */
    private long heaviestLastReadNanos;
    /** Written by the selector thread only; read by stats() from any thread. */
    private volatile long deferrals;

    /**
     * @param maxDeferNanos    longest a lighter connection waits behind a stalled heavier one (behind one that
     *                         makes progress: this times the ratio of their budgets); 0 turns pacing off
     * @param requestCostBytes the least credit one message of a lighter connection costs
     */
    ReadPacer(long maxDeferNanos, long requestCostBytes) {
        this.maxDeferNanos = maxDeferNanos;
        this.requestCostBytes = requestCostBytes;
    }

    /**
     * Decides whether a readable connection reads in this turn; when not, turns its OP_READ off.
     *
     * @return true to read now
     */
    boolean mayRead(InboundConnection c, long nowNanos) {
        if (maxDeferNanos <= 0 || c.readDeferred) {
            return !c.readDeferred;
        }
        if (c.readGranted) {
            c.readGranted = false; // re-armed: its turn, whatever the others do now
            return true;
        }
        if (heaviestAssemblingBudget(c) <= c.readBudgetBytes) {
            leaveContest(c); // nobody heavier waits: no debt carried into the next contest
            return true;
        }
        if (c.readCredit >= 0) {
            return true;
        }
        c.readDeferred = true;
        c.deferredSinceNanos = nowNanos;
        deferred.add(c);
        deferrals = deferrals + 1; // single writer
        ReadInterest.stop(c);
        return false;
    }

    /**
     * After a connection's read turn: keeps the list of mid-message connections, charges a lighter
     * connection for its turn, and credits the deferred connections lighter than this one.
     */
    void afterRead(InboundConnection c, int bytesRead) {
        long surcharge = c.takePacingSurcharge();
        if (maxDeferNanos <= 0) {
            return;
        }
        boolean wasHeaviest = c == top1Connection;
        boolean mid = c.assembling();
        if (mid != c.inAssemblingList) {
            c.inAssemblingList = mid;
            if (mid) {
                assembling.add(c);
                noteTop(c);
            } else {
                assembling.remove(c);
                if (c == top1Connection) {
                    recomputeTops();
                }
            }
        }
        if (bytesRead <= 0) {
            return;
        }
        if (heaviestAssemblingBudget(c) > c.readBudgetBytes) {
            c.readCredit -= bytesRead + surcharge;
            if (!c.contending) {
                c.contending = true;
                contenders.add(c);
            }
        }
        if (!wasHeaviest && c != top1Connection) {
            return; // only the heaviest mid-message connection's bytes earn the others their turns
        }
        heaviestReadThisTurn = true;
        for (int i = contenders.size() - 1; i >= 0; i--) {
            InboundConnection d = contenders.get(i);
            if (c.readBudgetBytes > d.readBudgetBytes) {
                d.readCredit = Math.min(requestCostBytes,
                        d.readCredit + (long) bytesRead * d.readBudgetBytes / c.readBudgetBytes);
                if (d.readDeferred && d.readCredit >= 0) {
                    rearm(d);
                }
            }
        }
    }

    private void leaveContest(InboundConnection c) {
        c.readCredit = 0;
        if (c.contending) {
            c.contending = false;
            contenders.remove(c);
        }
    }

    /** At the end of a turn: re-arms deferred connections that waited too long or no longer wait behind anyone. */
    void endOfTurn(long nowNanos) {
        for (int i = assembling.size() - 1; i >= 0; i--) {
            InboundConnection a = assembling.get(i);
            if (a.isClosed()) {
                a.inAssemblingList = false;
                assembling.remove(i);
            }
        }
        recomputeTops(); // budgets may have been changed by the isolation thread since the last turn
        if (heaviestReadThisTurn) {
            heaviestReadThisTurn = false;
            heaviestLastReadNanos = nowNanos;
        }
        boolean heaviestStalled = nowNanos - heaviestLastReadNanos >= maxDeferNanos;
        for (int i = deferred.size() - 1; i >= 0; i--) {
            InboundConnection d = deferred.get(i);
            int heavier = heaviestAssemblingBudget(d);
            long waited = nowNanos - d.deferredSinceNanos;
            if (d.isClosed() || heavier <= d.readBudgetBytes
                    || (waited >= maxDeferNanos && (heaviestStalled || waited >= weightedBound(heavier, d.readBudgetBytes)))) {
                d.readCredit = 0;
                rearm(d);
            }
        }
        for (int i = contenders.size() - 1; i >= 0; i--) {
            InboundConnection d = contenders.get(i);
            if (d.isClosed() || (!d.readDeferred && heaviestAssemblingBudget(d) <= d.readBudgetBytes)) {
                leaveContest(d);
            }
        }
    }

    /** The longest a connection of budget {@code light} waits behind a heavier one that makes progress: {@code maxDeferNanos * heavy / light}. */
    private long weightedBound(int heavy, int light) {
        double ratio = (double) heavy / Math.max(1, light);
        return (long) Math.min(Long.MAX_VALUE / 2.0, maxDeferNanos * ratio);
    }

    /** What a message of {@code messageBytes} costs a lighter connection beyond its bytes: {@code max(0, requestCostBytes - messageBytes)}. */
    long surcharge(int messageBytes) {
        return Math.max(0, requestCostBytes - messageBytes);
    }

    /** @return true while some connection is deferred (the loop then wakes at least every millisecond) */
    boolean hasDeferred() {
        return !deferred.isEmpty();
    }

    /** @return read turns deferred since the start */
    long deferrals() {
        return deferrals;
    }

    private int heaviestAssemblingBudget(InboundConnection except) {
        return except == top1Connection ? top2 : top1;
    }

    private void noteTop(InboundConnection a) {
        int b = a.readBudgetBytes;
        if (b > top1) {
            top2 = top1;
            top1 = b;
            top1Connection = a;
        } else if (b > top2) {
            top2 = b;
        }
    }

    private void recomputeTops() {
        top1 = 0;
        top2 = 0;
        top1Connection = null;
        for (int i = 0; i < assembling.size(); i++) {
            InboundConnection a = assembling.get(i);
            if (!a.isClosed()) {
                noteTop(a);
            }
        }
    }

    private void rearm(InboundConnection d) {
        deferred.remove(d);
        d.readDeferred = false;
        d.readGranted = true;
        ReadInterest.resume(d); // unless the budget or its share paused it, or the loop no longer reads
    }
}
