package org.irmi.adaptation;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import org.irmi.isolation.AdaptationModule;
import org.irmi.isolation.AdaptationModuleProvider;
import org.irmi.isolation.ModuleSettings;
import org.irmi.sla.ActionConfig;
import org.irmi.sla.AdaptiveLimitConfig;
import org.irmi.sla.CustomModuleConfig;
import org.irmi.sla.DeferConfig;
import org.irmi.sla.DegradeConfig;
import org.irmi.sla.ModuleConfig;
import org.irmi.sla.RejectConfig;
import org.irmi.sla.RerouteConfig;
import org.irmi.sla.ShortCircuitConfig;
import org.irmi.sla.ThrottleConfig;

/**
 * Finds adaptation modules by the name an SLA gives them. Built-ins and third-party modules alike
 * are {@link AdaptationModuleProvider}s found by {@link ServiceLoader} on the class path; a third
 * party lists its provider in {@code META-INF/services/org.irmi.isolation.AdaptationModuleProvider}
 * and uses a namespaced name ({@code com.acme.hedge}).
 */
public final class AdaptationModules {
    private AdaptationModules() {
    }

    /** @return the providers on the class path by name (built-ins first). */
    public static Map<String, AdaptationModuleProvider> providers() {
        return providers(Thread.currentThread().getContextClassLoader());
    }

    /** @return the providers visible to {@code loader} by name. */
    public static Map<String, AdaptationModuleProvider> providers(ClassLoader loader) {
        Map<String, AdaptationModuleProvider> out = new LinkedHashMap<>();
        for (AdaptationModuleProvider p : ServiceLoader.load(AdaptationModuleProvider.class,
                loader == null ? AdaptationModules.class.getClassLoader() : loader)) {
            AdaptationModuleProvider prev = out.putIfAbsent(p.name(), p);
            if (prev != null && prev.getClass() != p.getClass()) {
                throw new IllegalStateException("two adaptation modules are named `" + p.name()
                        + "`: " + prev.getClass().getName() + " and " + p.getClass().getName());
            }
        }
        if (!out.containsKey("reject")) {
            // class loaders that hide our own service file (some containers): the built-ins still exist
            for (AdaptationModuleProvider p : ServiceLoader.load(AdaptationModuleProvider.class,
                    AdaptationModules.class.getClassLoader())) {
                out.putIfAbsent(p.name(), p);
            }
        }
        return out;
    }

    /** @return the names of every module on the class path. */
    public static Set<String> names() {
        return providers().keySet();
    }

    /**
     * Creates the module named {@code settings.module()}.
     *
     * @throws IllegalArgumentException for an unknown name (with the closest known one) or an
     *                                  invalid parameter
     */
    public static AdaptationModule create(ModuleSettings settings) {
        Map<String, AdaptationModuleProvider> all = providers();
        AdaptationModuleProvider p = all.get(settings.module());
        if (p == null) {
            String best = null;
            int bestD = Integer.MAX_VALUE;
            for (String n : all.keySet()) {
                int d = org.irmi.adaptation.internal.BuiltInProviders.distance(settings.module(), n);
                if (d < bestD) {
                    bestD = d;
                    best = n;
                }
            }
            throw new IllegalArgumentException("unknown adaptation module `" + settings.module()
                    + "`" + (best != null && bestD <= 3 ? " (did you mean `" + best + "`?)" : "")
                    + "; known modules: " + all.keySet() + ". A third-party module must list its "
                    + "AdaptationModuleProvider in META-INF/services.");
        }
        return p.create(settings);
    }

    /** @return the module of an SLA action, its fallback chain built first. */
    public static AdaptationModule fromAction(ActionConfig action, ModuleServices services) {
        AdaptationModule fallback = action.fallback().map(f -> fromAction(f, services)).orElse(null);
        ModuleConfig m = action.module();
        ModuleSettings s = new ModuleSettings(m.name(), params(m), Map.of(ModuleServices.class,
                services), services.nanoClock(), fallback);
        return create(s);
    }

    /** @return the SLA's typed module parameters as the providers' parameter map. */
    static Map<String, Object> params(ModuleConfig m) {
        Map<String, Object> p = new LinkedHashMap<>();
        if (m instanceof RejectConfig r) {
            p.put("kind", r.kind().name());
            if (r.minorCode().isPresent()) {
                p.put("minorCode", Integer.toUnsignedLong(r.minorCode().getAsInt()));
            }
            p.put("reason", r.reason());
        } else if (m instanceof ShortCircuitConfig sc) {
            sc.result().ifPresent(v -> p.put("result", v));
            p.put("dropOneways", sc.dropOneways());
        } else if (m instanceof RerouteConfig rr) {
            p.put("replicas", rr.replicas());
            rr.namingService().ifPresent(v -> p.put("namingService", v));
            p.put("refresh", rr.refresh());
        } else if (m instanceof DeferConfig d) {
            p.put("capacity", d.capacity());
            p.put("retryDelay", d.retryDelay());
            p.put("maxRetries", d.maxRetries());
            p.put("whenFull", d.whenFull().yaml());
        } else if (m instanceof DegradeConfig dg) {
            p.put("reducer", dg.reducer());
        } else if (m instanceof ThrottleConfig t) {
            p.put("rate", t.ratePerSecond());
            p.put("burst", t.burst());
        } else if (m instanceof AdaptiveLimitConfig a) {
            p.put("algorithm", a.algorithm().name().toLowerCase(java.util.Locale.ROOT));
            p.put("initialLimit", a.initialLimit());
            p.put("minLimit", a.minLimit());
            p.put("maxLimit", a.maxLimit());
            if (a.algorithm() == AdaptiveLimitConfig.Algorithm.GRADIENT) {
                p.put("smoothing", a.gradient().smoothing());
                p.put("rttTolerance", a.gradient().rttTolerance());
                p.put("longWindow", a.gradient().longWindow());
                p.put("queueSize", a.gradient().queueSize());
            } else {
                p.put("backoffRatio", a.aimd().backoffRatio());
                p.put("increase", a.aimd().increase());
                p.put("timeout", a.aimd().timeout());
            }
        } else if (m instanceof CustomModuleConfig c) {
            p.putAll(c.params().toPlain());
        }
        return p;
    }
}
