package org.irmi.isolation;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.irmi.sla.CustomModuleConfig;
import org.irmi.sla.SlaParams;

/**
 * What a third-party adaptation module is given: its SLA parameters, still carrying their file
 * positions, plus the services it may use (a monotonic clock, a replica resolver, an application's
 * parameter reducer) and its fallback. The module reads and bounds its parameters through {@link
 * SlaParams} ({@code allowOnly}, {@code require}, {@code SlaParam.asDuration()}, ...), whose
 * errors name {@code file:line:col} and the key like the SLA loader's own. Built-in modules never
 * see this: they are built from the SLA's typed configs, already checked.
 *
 * @param config    the module's name and raw parameters, as the SLA wrote them
 * @param services  services by type (e.g. {@code ModuleServices}), unmodifiable
 * @param nanoClock the monotonic clock in nanoseconds (the only clock a module may read)
 * @param fallback  the module to use when this one cannot act (the SLA's {@code fallback}), or null
 */
public record ModuleSettings(CustomModuleConfig config, Map<Class<?>, Object> services,
                             LongSupplier nanoClock, AdaptationModule fallback) {
    public ModuleSettings {
        Objects.requireNonNull(config, "config");
        services = Collections.unmodifiableMap(new LinkedHashMap<>(services));
        Objects.requireNonNull(nanoClock, "nanoClock");
    }

    /** @return settings with no services and no fallback, on the system clock. */
    public static ModuleSettings of(CustomModuleConfig config) {
        return new ModuleSettings(config, Map.of(), System::nanoTime, null);
    }

    /** @return the module's name, as the SLA wrote it. */
    public String module() {
        return config.name();
    }

    /** @return the module's parameters, each with its file position. */
    public SlaParams params() {
        return config.params();
    }

    /** @return a copy with one more service. */
    public <T> ModuleSettings withService(Class<T> type, T service) {
        Map<Class<?>, Object> s = new LinkedHashMap<>(services);
        s.put(type, service);
        return new ModuleSettings(config, s, nanoClock, fallback);
    }

    /** @return a copy on another clock. */
    public ModuleSettings withClock(LongSupplier clock) {
        return new ModuleSettings(config, services, clock, fallback);
    }

    /** @return a copy with a fallback module. */
    public ModuleSettings withFallback(AdaptationModule fallbackModule) {
        return new ModuleSettings(config, services, nanoClock, fallbackModule);
    }

    /** @return the fallback module, if the SLA gave one. */
    public Optional<AdaptationModule> fallbackModule() {
        return Optional.ofNullable(fallback);
    }

    /** @return the service of that type, if one was given. */
    public <T> Optional<T> service(Class<T> type) {
        return Optional.ofNullable(type.cast(services.get(type)));
    }
}
