package org.irmi.isolation;

/**
 * Makes {@link AdaptationModule}s of one name. Implementations are listed in {@code
 * META-INF/services/org.irmi.isolation.AdaptationModuleProvider}; the SLA names them.
 */
public interface AdaptationModuleProvider {
    /** @return the name an SLA uses for this module, lower case with dashes ({@code short-circuit}). */
    String name();

    /**
     * @param settings the module's SLA parameters and the services it may use
     * @return a new module; IllegalArgumentException naming the parameter when one is invalid
     */
    AdaptationModule create(ModuleSettings settings);
}
