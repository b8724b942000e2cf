package org.irmi.adaptation;

import org.irmi.isolation.Evidence;
import org.irmi.isolation.IncomingRequest;
import org.irmi.isolation.OutgoingCall;
import org.irmi.isolation.PointKind;
import org.irmi.isolation.Trigger;

/** Triggers as the two deciding points hand them to modules. */
public final class Triggers {
    private Triggers() {
    }

    public static Trigger slowClient(long nowNanos) {
        return slowClient(nowNanos, false, new Object[]{"payload"});
    }

    public static Trigger slowClient(long nowNanos, boolean oneway, Object[] args) {
        OutgoingCall c = new OutgoingCall("secondary", 2809, "Sink", "deliver", oneway, args, 512);
        return new Trigger(PointKind.SLOW_CLIENT, c.stream(), c,
                Evidence.builder().put("queueEstimate", 80).build(), nowNanos);
    }

    public static Trigger poison(long nowNanos) {
        IncomingRequest r = new IncomingRequest(1, 2, "127.0.0.1:4000", "TradePOA/t", "poison", 100,
                true, null, null);
        return new Trigger(PointKind.POISON_MESSAGE, r.stream(), r,
                Evidence.builder().put("timesFiltered", 1).build(), nowNanos);
    }
}
