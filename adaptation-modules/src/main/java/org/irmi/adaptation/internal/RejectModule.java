package org.irmi.adaptation.internal;

import org.irmi.isolation.AdaptationModule;
import org.irmi.isolation.Decision;
import org.irmi.isolation.MinorCodes;
import org.irmi.isolation.PointKind;
import org.irmi.sla.SystemExceptionKind;
import org.irmi.isolation.Trigger;

/**
 * Module {@code reject}: the call fails with {@code TRANSIENT} or {@code NO_RESOURCES}, completed
 * NO. Without a configured minor code the point's own is used: {@link MinorCodes#POISON_FILTERED}
 * for the poison point, {@link MinorCodes#SLOW_CLIENT_REJECTED} for the slow-client point, {@link
 * MinorCodes#REJECTED_BY_POLICY} otherwise.
 */
public final class RejectModule implements AdaptationModule {
    public static final String NAME = org.irmi.sla.ModuleConfig.REJECT;
    private final SystemExceptionKind kind;
    private final Integer minor;
    private final String reason;

    /** @param minor the minor code, or null for the point's default */
    public RejectModule(SystemExceptionKind kind, Integer minor, String reason) {
        this.kind = kind;
        this.minor = minor;
        this.reason = reason;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Decision decide(Trigger trigger) {
        int m = minor != null ? minor : trigger.point() == PointKind.POISON_MESSAGE
                ? MinorCodes.POISON_FILTERED : trigger.point() == PointKind.SLOW_CLIENT
                ? MinorCodes.SLOW_CLIENT_REJECTED : MinorCodes.REJECTED_BY_POLICY;
        return Decision.reject(kind, m, reason + " (" + trigger.point().metricName() + ": "
                + trigger.operation() + ")");
    }
}
