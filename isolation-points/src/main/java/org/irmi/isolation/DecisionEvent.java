package org.irmi.isolation;

import java.util.Objects;
import org.irmi.monitors.StreamKey;

/**
 * One decision an isolation point enforced, with why: the structured event an operator reads to
 * learn why a call was refused. Published to every {@link DecisionListener} and logged as one line
 * ({@code irmi.decision point=poison_message action=reject minor=POISON_FILTERED stream=...
 * evidence={...} reason="..."}).
 *
 * @param point          which point decided
 * @param stream         the call's stream
 * @param module         the adaptation module that decided ("-" when the point decided alone)
 * @param decision       the decision enforced
 * @param evidence       the window values that triggered it
 * @param wallTimeMillis wall-clock time of the decision, for the log only
 */
public record DecisionEvent(PointKind point, StreamKey stream, String module, Decision decision,
                            Evidence evidence, long wallTimeMillis) {
    public DecisionEvent {
        Objects.requireNonNull(point, "point");
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(decision, "decision");
        Objects.requireNonNull(evidence, "evidence");
    }

    /** @return the event as one structured log line. */
    public String toLogLine() {
        StringBuilder sb = new StringBuilder(160).append("irmi.decision point=")
                .append(point.metricName()).append(" action=").append(decision.action().metricName())
                .append(" module=").append(module).append(" stream=").append(stream);
        if (decision instanceof Decision.Reject r) {
            sb.append(" exception=").append(r.kind()).append(" minor=")
                    .append(MinorCodes.name(r.minor())).append(" reason=\"").append(r.reason())
                    .append('"');
        } else if (decision instanceof Decision.Forward f) {
            sb.append(" replica=").append(f.replicaName());
        } else if (decision instanceof Decision.Throttle t) {
            sb.append(" waitNanos=").append(t.waitNanos());
        } else if (decision instanceof Decision.Defer d) {
            sb.append(" maxWaitNanos=").append(d.maxWaitNanos());
        }
        return sb.append(" evidence=").append(evidence).toString();
    }
}
