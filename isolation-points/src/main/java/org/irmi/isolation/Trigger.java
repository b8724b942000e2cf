package org.irmi.isolation;

import java.util.Objects;
import org.irmi.monitors.StreamKey;

/**
 * What a point hands an adaptation module when it has detected a problem with a call: which
 * point, which stream, the call's view, the evidence and the time (as data; modules never read a
 * clock of their own unless injected).
 *
 * @param point    the point that asks
 * @param stream   the call's stream
 * @param call     the {@link OutgoingCall} (slow client) or {@link IncomingRequest} (poison)
 * @param evidence the window values that triggered
 * @param nowNanos monotonic time of the decision
 */
public record Trigger(PointKind point, StreamKey stream, Object call, Evidence evidence,
                      long nowNanos) {
    public Trigger {
        Objects.requireNonNull(point, "point");
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(call, "call");
        Objects.requireNonNull(evidence, "evidence");
    }

    /** @return whether a oneway call is being decided (no reply is expected). */
    public boolean oneway() {
        if (call instanceof OutgoingCall c) {
            return c.oneway();
        }
        return call instanceof IncomingRequest r && !r.responseExpected();
    }

    /** @return the operation name. */
    public String operation() {
        return stream.operation();
    }
}
