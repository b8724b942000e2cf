package org.irmi.adaptation.internal;

import java.util.Optional;
import java.util.concurrent.Executor;
import org.irmi.adaptation.ModuleServices;
import org.irmi.adaptation.ReplicaResolver;
import org.irmi.isolation.AdaptationModule;
import org.irmi.isolation.ParameterReducer;
import org.irmi.sla.AdaptiveLimitConfig;
import org.irmi.sla.DeferConfig;
import org.irmi.sla.DegradeConfig;
import org.irmi.sla.ModuleConfig;
import org.irmi.sla.RejectConfig;
import org.irmi.sla.RerouteConfig;
import org.irmi.sla.ShortCircuitConfig;
import org.irmi.sla.ThrottleConfig;

/**
 * Builds the built-in modules from the SLA's typed configs. Every value, bound and default was
 * settled when the config was made (by the SLA loader, which names file:line:col, or by the
 * config's own constructor in code), so nothing here parses or bounds a value again. What is left
 * is wiring the SLA cannot see: the application's reducer ({@code degrade}) and whether the replica
 * resolver can use the SLA's naming service ({@code reroute}).
 */
public final class BuiltInModules {
    private BuiltInModules() {
    }

    /**
     * @param config   a built-in module's config (not a {@code CustomModuleConfig})
     * @param services the clock, resolver, reducers and executor the modules use
     * @param fallback the module to use when this one cannot act, or null
     * @throws IllegalArgumentException when the application did not provide what the config names
     */
    public static AdaptationModule create(ModuleConfig config, ModuleServices services,
                                          AdaptationModule fallback) {
        if (config instanceof RejectConfig r) {
            return new RejectModule(r.kind(),
                    r.minorCode().isPresent() ? r.minorCode().getAsInt() : null, r.reason());
        }
        if (config instanceof ShortCircuitConfig sc) {
            return new ShortCircuitModule(sc.result().orElse(null), sc.dropOneways());
        }
        if (config instanceof RerouteConfig rr) {
            return reroute(rr, services, fallback);
        }
        if (config instanceof DeferConfig d) {
            return new DeferModule(d.capacity(), d.retryDelay().toNanos(), d.maxRetries(),
                    d.whenFull(), false, services.nanoClock());
        }
        if (config instanceof DegradeConfig dg) {
            return new DegradeModule(reducer(dg, services), Optional.ofNullable(fallback));
        }
        if (config instanceof ThrottleConfig t) {
            return new ThrottleModule(t.ratePerSecond(), t.burst(), services.nanoClock());
        }
        if (config instanceof AdaptiveLimitConfig a) {
            return new AdaptiveLimitModule(limit(a));
        }
        throw new IllegalArgumentException("`" + config.name() + "` is not a built-in module");
    }

    private static RerouteModule reroute(RerouteConfig c, ModuleServices services,
                                         AdaptationModule fallback) {
        ReplicaResolver resolver = services.replicaResolver();
        if (resolver != null && c.namingService().isPresent()) {
            String url = c.namingService().get().trim();
            resolver = resolver.at(url).orElseThrow(() -> new IllegalArgumentException(
                    "adaptation module `reroute`: parameter `namingService` (" + url + ") cannot be used: "
                            + "this host's replica resolver looks only in its own naming service"));
        }
        return new RerouteModule(c.replicas(), resolver, c.refresh().toNanos(), background(services),
                Optional.ofNullable(fallback), services.nanoClock().getAsLong());
    }

    private static ParameterReducer reducer(DegradeConfig c, ModuleServices services) {
        ParameterReducer r = services.reducers().get(c.reducer());
        if (r == null) {
            throw new IllegalArgumentException("adaptation module `degrade`: no parameter reducer is "
                    + "registered as `" + c.reducer() + "`; register one with ModuleServices.builder()"
                    + ".reducer(\"" + c.reducer() + "\", reducer); registered: "
                    + services.reducers().keySet());
        }
        return r;
    }

    private static LimitAlgorithm limit(AdaptiveLimitConfig c) {
        if (c.algorithm() == AdaptiveLimitConfig.Algorithm.AIMD) {
            AdaptiveLimitConfig.Aimd a = c.aimd();
            return new AimdLimit(c.initialLimit(), c.minLimit(), c.maxLimit(), a.backoffRatio(),
                    a.increase(), a.timeout().toNanos());
        }
        AdaptiveLimitConfig.Gradient g = c.gradient();
        return new GradientLimit(c.initialLimit(), c.minLimit(), c.maxLimit(), g.smoothing(),
                g.rttTolerance(), g.longWindow(), g.queueSize());
    }

    private static Executor background(ModuleServices services) {
        if (services.background() != null) {
            return services.background();
        }
        return r -> {
            Thread t = new Thread(r, "irmi-adaptation-background");
            t.setDaemon(true);
            t.start();
        };
    }
}
