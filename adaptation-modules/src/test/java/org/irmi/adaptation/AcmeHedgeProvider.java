package org.irmi.adaptation;

import org.irmi.isolation.AdaptationModule;
import org.irmi.isolation.AdaptationModuleProvider;
import org.irmi.isolation.Decision;
import org.irmi.isolation.MinorCodes;
import org.irmi.isolation.ModuleSettings;
import org.irmi.sla.SystemExceptionKind;
import org.irmi.isolation.Trigger;
import org.irmi.sla.SlaParam;
import org.irmi.sla.SlaParams;

/** A third party's module, found by its namespaced name through ServiceLoader (test class path). */
public final class AcmeHedgeProvider implements AdaptationModuleProvider {
    @Override
    public String name() {
        return "com.acme.hedge";
    }

    @Override
    public AdaptationModule create(ModuleSettings settings) {
        SlaParams p = settings.params();
        p.allowOnly("copies");
        long copies = p.get("copies").map(SlaParam::asLong).orElse(1L);
        if (copies < 1 || copies > 10) {
            throw p.require("copies").error("must be between 1 and 10, was " + copies);
        }
        return new AdaptationModule() {
            @Override
            public String name() {
                return "com.acme.hedge";
            }

            @Override
            public Decision decide(Trigger trigger) {
                return Decision.reject(SystemExceptionKind.TRANSIENT, MinorCodes.REJECTED_BY_POLICY,
                        "hedged x" + copies);
            }
        };
    }
}
