package org.irmi.isolation;

import java.util.Objects;
import java.util.concurrent.CompletionStage;
import org.irmi.sla.SystemExceptionKind;

/**
 * What an adaptation module tells an isolation point to do with one call. Decisions are values:
 * rejection is a returned {@link Reject}, never an exception thrown through the point.
 *
 * <p>Which hook can enforce what:
 * <table>
 * <caption>enforcement by hook</caption>
 * <tr><th>decision</th><th>client call hook (slow client)</th><th>server reader hook (poison)</th></tr>
 * <tr><td>{@link Proceed}</td><td>yes</td><td>yes</td></tr>
 * <tr><td>{@link Reject}</td><td>raise the system exception locally</td><td>system-exception reply</td></tr>
 * <tr><td>{@link ShortCircuit}</td><td>complete locally with the result; a oneway is dropped</td>
 *     <td>no (answered as {@code NOT_ENFORCEABLE_HERE} reject)</td></tr>
 * <tr><td>{@link Forward}</td><td>re-target the call (ForwardRequest)</td><td>LOCATION_FORWARD reply</td></tr>
 * <tr><td>{@link Defer}</td><td>the calling thread waits for the release, then re-decides</td>
 *     <td>no: the reader never waits</td></tr>
 * <tr><td>{@link Degrade}</td><td>the reducer rewrites the arguments before marshalling</td><td>no</td></tr>
 * <tr><td>{@link Throttle}</td><td>the calling thread waits {@code waitNanos}, then proceeds</td><td>no</td></tr>
 * </table>
 * A decision a hook cannot enforce is turned into a {@code TRANSIENT} reject with minor {@link
 * MinorCodes#NOT_ENFORCEABLE_HERE} by {@link #enforceableOnReaderThread()}.
 */
public sealed interface Decision
        permits Decision.Proceed, Decision.Reject, Decision.ShortCircuit, Decision.Forward,
        Decision.Defer, Decision.Degrade, Decision.Throttle {

    /** The kind of a decision, a bounded metric tag. */
    enum Action {
        PROCEED, REJECT, SHORT_CIRCUIT, FORWARD, DEFER, DEGRADE, THROTTLE;

        /** @return the lower-case metric tag value ({@code short_circuit}). */
        public String metricName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** @return this decision's kind. */
    Action action();

    /** The shared plain proceed (no listener); allocation-free on the hot path. */
    Proceed PROCEED = new Proceed(CallListener.NONE);

    /** @return the plain proceed. */
    static Proceed proceed() {
        return PROCEED;
    }

    /** @return a proceed whose outcome must be reported to {@code listener}. */
    static Proceed proceed(CallListener listener) {
        return new Proceed(listener);
    }

    /** @return a reject with kind, minor code and a reason for the caller and the log. */
    static Reject reject(SystemExceptionKind kind, int minor, String reason) {
        return new Reject(kind, minor, reason);
    }

    /**
     * Let the call go on. {@code listener} must be told how it ended.
     *
     * @param listener never null; {@link CallListener#NONE} when nobody listens
     */
    record Proceed(CallListener listener) implements Decision {
        public Proceed {
            Objects.requireNonNull(listener, "listener");
        }

        @Override
        public Action action() {
            return Action.PROCEED;
        }
    }

    /**
     * Refuse the call with a system exception, completed NO.
     *
     * @param kind   TRANSIENT or NO_RESOURCES
     * @param minor  a {@link MinorCodes} value
     * @param reason a human-readable reason, also logged
     */
    record Reject(SystemExceptionKind kind, int minor, String reason) implements Decision {
        public Reject {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public Action action() {
            return Action.REJECT;
        }
    }

    /**
     * Complete the call locally without sending it (the paper's call elimination): the caller
     * receives {@code result} as if the server had answered; a oneway is silently dropped.
     *
     * @param result the result to return; null for void operations, oneways, or "the type's default"
     *               (the hook maps null to 0/false/null of the declared return type)
     */
    record ShortCircuit(Object result) implements Decision {
        @Override
        public Action action() {
            return Action.SHORT_CIRCUIT;
        }
    }

    /**
     * Send the call to another object instead (client: re-target; server: LOCATION_FORWARD).
     *
     * @param replicaName the replica's name (as bound in the Naming Service), for logs
     * @param target      the replica's object reference ({@code org.omg.CORBA.Object} in an ORB)
     */
    record Forward(String replicaName, Object target) implements Decision {
        public Forward {
            Objects.requireNonNull(replicaName, "replicaName");
            Objects.requireNonNull(target, "target");
        }

        @Override
        public Action action() {
            return Action.FORWARD;
        }
    }

    /**
     * Park the call in a bounded queue: the calling thread waits for {@code release}, at most
     * {@code maxWaitNanos}; the decision it completes with is then enforced instead (normally a
     * proceed). When the wait times out the hook rejects with {@link MinorCodes#DEFER_TIMEOUT}
     * and must call {@code onTimeout} so the module frees the slot.
     */
    record Defer(CompletionStage<Decision> release, long maxWaitNanos, Runnable onTimeout)
            implements Decision {
        public Defer {
            Objects.requireNonNull(release, "release");
            Objects.requireNonNull(onTimeout, "onTimeout");
            if (maxWaitNanos <= 0) {
                throw new IllegalArgumentException("maxWaitNanos must be > 0, was " + maxWaitNanos);
            }
        }

        @Override
        public Action action() {
            return Action.DEFER;
        }
    }

    /** Shrink the call's parameters with the application's reducer, then send it. */
    record Degrade(ParameterReducer reducer) implements Decision {
        public Degrade {
            Objects.requireNonNull(reducer, "reducer");
        }

        @Override
        public Action action() {
            return Action.DEGRADE;
        }
    }

    /** Pace the caller: wait {@code waitNanos} (never on a reader thread), then proceed. */
    record Throttle(long waitNanos) implements Decision {
        public Throttle {
            if (waitNanos < 0) {
                throw new IllegalArgumentException("waitNanos must be >= 0, was " + waitNanos);
            }
        }

        @Override
        public Action action() {
            return Action.THROTTLE;
        }
    }

    /**
     * @return this decision if a server reader thread can enforce it (proceed, reject, forward),
     *         otherwise a TRANSIENT reject with minor {@link MinorCodes#NOT_ENFORCEABLE_HERE}
     */
    default Decision enforceableOnReaderThread() {
        return switch (action()) {
            case PROCEED, REJECT, FORWARD -> this;
            default -> new Reject(SystemExceptionKind.TRANSIENT, MinorCodes.NOT_ENFORCEABLE_HERE,
                    action().metricName() + " cannot be enforced on the reader thread");
        };
    }
}
