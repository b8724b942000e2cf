package org.irmi.adaptation;

import org.irmi.isolation.AdaptationModule;
import org.irmi.isolation.AdaptationModuleProvider;
import org.irmi.isolation.Decision;
import org.irmi.isolation.MinorCodes;
import org.irmi.isolation.ModuleSettings;
import org.irmi.isolation.SystemExceptionKind;
import org.irmi.isolation.Trigger;

/** A third party's module, found by its namespaced name through ServiceLoader (test class path). */
public final class AcmeHedgeProvider implements AdaptationModuleProvider {
    @Override
    public String name() {
        return "com.acme.hedge";
    }

    @Override
    public AdaptationModule create(ModuleSettings settings) {
        for (String key : settings.params().keySet()) {
            if (!key.equals("copies")) {
                throw new IllegalArgumentException("com.acme.hedge: unknown parameter `" + key + "`");
            }
        }
        long copies = settings.integer("copies", 1, 1, 10);
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
