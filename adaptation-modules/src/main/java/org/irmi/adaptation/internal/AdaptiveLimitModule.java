package org.irmi.adaptation.internal;

import java.util.concurrent.atomic.AtomicInteger;
import org.irmi.isolation.AdaptationModule;
import org.irmi.isolation.CallListener;
import org.irmi.isolation.Decision;
import org.irmi.isolation.MinorCodes;
import org.irmi.sla.SystemExceptionKind;
import org.irmi.isolation.Trigger;

/**
 * Module {@code adaptive-limit}: at most {@code limit} guarded calls in flight, the limit adapted
 * by a {@link LimitAlgorithm} (gradient or AIMD) from each call's round trip. Consulted on every
 * guarded call (it must count them all); a call over the limit is rejected with {@code
 * TRANSIENT}, {@link MinorCodes#CONCURRENCY_LIMIT}. Admitted calls carry a {@link CallListener}
 * that releases the permit and feeds the algorithm; a cancelled call ({@code onIgnore}) releases
 * without a sample, so that cancellations never count as overload.
 */
public final class AdaptiveLimitModule implements AdaptationModule {
    public static final String NAME = org.irmi.sla.ModuleConfig.ADAPTIVE_LIMIT;
    private final LimitAlgorithm algorithm;
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile int limit;

    public AdaptiveLimitModule(LimitAlgorithm algorithm) {
        this.algorithm = algorithm;
        this.limit = algorithm.limit();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean consultedOnEveryCall() {
        return true;
    }

    @Override
    public Decision decide(Trigger trigger) {
        while (true) {
            int n = inFlight.get();
            if (n >= limit) {
                return Decision.reject(SystemExceptionKind.TRANSIENT, MinorCodes.CONCURRENCY_LIMIT,
                        "concurrency limit " + limit + " reached (" + trigger.operation() + ")");
            }
            if (inFlight.compareAndSet(n, n + 1)) {
                return Decision.proceed(new Permit(n + 1));
            }
        }
    }

    private final class Permit implements CallListener {
        private final int inFlightAtStart;
        private boolean done;

        Permit(int inFlightAtStart) {
            this.inFlightAtStart = inFlightAtStart;
        }

        @Override
        public void onSuccess(long rttNanos) {
            release(rttNanos, false, true);
        }

        @Override
        public void onDropped() {
            release(0, true, true);
        }

        @Override
        public void onIgnore() {
            release(0, false, false);
        }

        private void release(long rtt, boolean drop, boolean sample) {
            synchronized (this) {
                if (done) {
                    return; // a hook that reports twice must not free two permits
                }
                done = true;
            }
            inFlight.decrementAndGet();
            if (sample) {
                synchronized (algorithm) {
                    limit = algorithm.onSample(rtt, inFlightAtStart, drop);
                }
            }
        }
    }

    /** @return the current limit. */
    public int limit() {
        return limit;
    }

    /** @return calls in flight now. */
    public int inFlight() {
        return inFlight.get();
    }
}
