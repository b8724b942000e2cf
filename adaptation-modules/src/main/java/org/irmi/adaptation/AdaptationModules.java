package org.irmi.adaptation;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import org.irmi.adaptation.internal.BuiltInModules;
import org.irmi.isolation.AdaptationModule;
import org.irmi.isolation.AdaptationModuleProvider;
import org.irmi.isolation.ModuleSettings;
import org.irmi.sla.ActionConfig;
import org.irmi.sla.CustomModuleConfig;
import org.irmi.sla.ModuleConfig;

/**
 * Builds the adaptation module an SLA action names. A built-in module is built from its typed
 * config ({@code ThrottleConfig}, ...), whose values the SLA loader has already checked. A
 * third-party module (a namespaced name such as {@code com.acme.hedge}) is an {@link
 * AdaptationModuleProvider} found by {@link ServiceLoader} on the class path (listed in {@code
 * META-INF/services/org.irmi.isolation.AdaptationModuleProvider}); it receives its raw parameters
 * with their file positions ({@link ModuleSettings}).
 */
public final class AdaptationModules {
    private AdaptationModules() {
    }

    /** @return the third-party providers on the class path by name. */
    public static Map<String, AdaptationModuleProvider> providers() {
        return providers(Thread.currentThread().getContextClassLoader());
    }

    /** @return the third-party providers visible to {@code loader} by name. */
    public static Map<String, AdaptationModuleProvider> providers(ClassLoader loader) {
        Map<String, AdaptationModuleProvider> out = new LinkedHashMap<>();
        for (AdaptationModuleProvider p : ServiceLoader.load(AdaptationModuleProvider.class,
                loader == null ? AdaptationModules.class.getClassLoader() : loader)) {
            if (ModuleConfig.BUILT_IN.contains(p.name())) {
                throw new IllegalStateException(p.getClass().getName() + " is named `" + p.name()
                        + "`, the name of a built-in module; a third-party module needs a namespaced "
                        + "name such as com.acme." + p.name());
            }
            AdaptationModuleProvider prev = out.putIfAbsent(p.name(), p);
            if (prev != null && prev.getClass() != p.getClass()) {
                throw new IllegalStateException("two adaptation modules are named `" + p.name()
                        + "`: " + prev.getClass().getName() + " and " + p.getClass().getName());
            }
        }
        return out;
    }

    /** @return the names of the built-in modules, then of every third-party module on the class path. */
    public static Set<String> names() {
        Set<String> names = new LinkedHashSet<>(ModuleConfig.BUILT_IN);
        names.addAll(providers().keySet());
        return names;
    }

    /** @return the module of an SLA action, its fallback chain built first. */
    public static AdaptationModule fromAction(ActionConfig action, ModuleServices services) {
        AdaptationModule fallback = action.fallback().map(f -> fromAction(f, services)).orElse(null);
        return create(action.module(), services, fallback);
    }

    /**
     * @param config   the module's config: a built-in's typed config, or a third-party's raw parameters
     * @param services what the application gives the modules
     * @param fallback the module to use when this one cannot act, or null
     * @throws org.irmi.sla.SlaException     a third-party module that is not on the class path, or
     *                                       that refuses a parameter (at its file position)
     * @throws IllegalArgumentException the application did not provide what the config names (a
     *                                  reducer, a usable naming service)
     */
    public static AdaptationModule create(ModuleConfig config, ModuleServices services,
                                          AdaptationModule fallback) {
        if (config instanceof CustomModuleConfig custom) {
            return create(new ModuleSettings(custom, Map.of(ModuleServices.class, services),
                    services.nanoClock(), fallback));
        }
        return BuiltInModules.create(config, services, fallback);
    }

    /**
     * Creates the third-party module {@code settings.module()}.
     *
     * @throws org.irmi.sla.SlaException no provider of that name is on the class path (at the
     *                                   action's position), or the provider refuses a parameter
     */
    public static AdaptationModule create(ModuleSettings settings) {
        Map<String, AdaptationModuleProvider> all = providers();
        AdaptationModuleProvider p = all.get(settings.module());
        if (p == null) {
            throw settings.params().error(settings.params().path() + ".module: unknown adaptation "
                    + "module '" + settings.module() + "': no AdaptationModuleProvider of that name is on "
                    + "the class path (third-party modules found: " + all.keySet() + "); a third-party "
                    + "module lists its provider in META-INF/services/"
                    + AdaptationModuleProvider.class.getName());
        }
        return p.create(settings);
    }
}
