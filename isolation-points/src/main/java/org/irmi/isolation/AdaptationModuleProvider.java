package org.irmi.isolation;

/**
 * Makes third-party {@link AdaptationModule}s of one name. Implementations are listed in {@code
 * META-INF/services/org.irmi.isolation.AdaptationModuleProvider} and carry a namespaced name
 * ({@code com.acme.hedge}); the SLA names them. The built-in modules are not providers: they are
 * built from the SLA's typed configs.
 */
public interface AdaptationModuleProvider {
    /** @return the name an SLA uses for this module, namespaced ({@code com.acme.hedge}). */
    String name();

    /**
     * @param settings the module's SLA parameters, with their positions, and the services it may use
     * @return a new module; an invalid parameter is reported through {@link ModuleSettings#params()}
     *     ({@code SlaException} naming file:line:col and the key)
     */
    AdaptationModule create(ModuleSettings settings);
}
