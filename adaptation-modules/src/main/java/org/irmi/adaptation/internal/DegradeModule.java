package org.irmi.adaptation.internal;

import java.util.Optional;
import org.irmi.isolation.AdaptationModule;
import org.irmi.isolation.Decision;
import org.irmi.isolation.OutgoingCall;
import org.irmi.isolation.ParameterReducer;
import org.irmi.isolation.Trigger;

/**
 * Module {@code degrade}: the application's reducer shrinks the call's parameters before they are
 * marshalled. It can act only where the hook sees the arguments (RMI-IIOP stubs, client side);
 * elsewhere it hands the call to its fallback, or lets it proceed unchanged when there is none
 * (degrading is a soft measure: it never refuses on its own).
 */
public final class DegradeModule implements AdaptationModule {
    public static final String NAME = org.irmi.sla.ModuleConfig.DEGRADE;
    private final Decision.Degrade decision;
    private final Optional<AdaptationModule> fallback;

    public DegradeModule(ParameterReducer reducer, Optional<AdaptationModule> fallback) {
        this.decision = new Decision.Degrade(reducer);
        this.fallback = fallback;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Decision decide(Trigger trigger) {
        if (trigger.call() instanceof OutgoingCall c && c.arguments() != null) {
            return decision;
        }
        return fallback.map(f -> f.decide(trigger)).orElse(Decision.proceed());
    }
}
