package org.irmi.adaptation.internal;

import java.util.function.LongSupplier;
import org.irmi.isolation.AdaptationModule;
import org.irmi.isolation.Decision;
import org.irmi.isolation.MinorCodes;
import org.irmi.isolation.OutgoingCall;
import org.irmi.sla.SystemExceptionKind;
import org.irmi.isolation.Trigger;

/**
 * Module {@code throttle}: a token bucket of {@code rate} calls a second and {@code burst} depth
 * over the calls the point flags. On the client a call without a token is paced: it reserves the
 * next token and waits for it ({@link Decision.Throttle}) when that comes within {@code burst /
 * rate} seconds, and is rejected ({@code TRANSIENT}, {@link MinorCodes#THROTTLED}) otherwise. On
 * the server (the reader never waits) a call without a token is rejected at once.
 */
public final class ThrottleModule implements AdaptationModule {
    public static final String NAME = org.irmi.sla.ModuleConfig.THROTTLE;
    private final TokenBucket bucket;
    private final LongSupplier nanoClock;
    private final long maxWaitNanos;

    public ThrottleModule(double ratePerSecond, int burst, LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.bucket = new TokenBucket(ratePerSecond, burst, nanoClock.getAsLong());
        this.maxWaitNanos = (long) (burst * 1e9 / ratePerSecond);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Decision decide(Trigger trigger) {
        long now = trigger.nowNanos();
        if (trigger.call() instanceof OutgoingCall) {
            long wait = bucket.reserve(now, maxWaitNanos);
            if (wait == 0) {
                return Decision.proceed();
            }
            if (wait > 0) {
                return new Decision.Throttle(wait);
            }
        } else if (bucket.tryAcquire(now)) {
            return Decision.proceed();
        }
        return Decision.reject(SystemExceptionKind.TRANSIENT, MinorCodes.THROTTLED,
                "rate limit exceeded (" + trigger.point().metricName() + ": " + trigger.operation()
                        + ")");
    }

    /** @return tokens left now (for tests and metrics). */
    public double tokens() {
        return bucket.tokens(nanoClock.getAsLong());
    }
}
