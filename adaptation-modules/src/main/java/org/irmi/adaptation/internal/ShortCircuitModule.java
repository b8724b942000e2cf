package org.irmi.adaptation.internal;

import org.irmi.isolation.AdaptationModule;
import org.irmi.isolation.Decision;
import org.irmi.isolation.Trigger;

/**
 * Module {@code short-circuit}: the paper's call elimination. The call completes locally without
 * reaching the target and the caller does not notice: it receives {@code result} (text the client
 * hook converts to the operation's return type; null means the type's default: null, 0, false).
 * A oneway is dropped, unless {@code dropOneways} is false, in which case it proceeds.
 */
public final class ShortCircuitModule implements AdaptationModule {
    public static final String NAME = org.irmi.sla.ModuleConfig.SHORT_CIRCUIT;
    private final String result;
    private final boolean dropOneways;
    private final Decision.ShortCircuit decision;

    public ShortCircuitModule(String result, boolean dropOneways) {
        this.result = result;
        this.dropOneways = dropOneways;
        this.decision = new Decision.ShortCircuit(result);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Decision decide(Trigger trigger) {
        if (trigger.oneway()) {
            return dropOneways ? new Decision.ShortCircuit(null) : Decision.proceed();
        }
        return decision;
    }

    /** @return the configured result text, or null for the default. */
    public String result() {
        return result;
    }
}
