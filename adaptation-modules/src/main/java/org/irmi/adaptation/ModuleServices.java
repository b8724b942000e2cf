package org.irmi.adaptation;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;
import org.irmi.isolation.ParameterReducer;
import org.irmi.monitors.Clock;

/**
 * What the application and the ORB give the adaptation modules: the clock, the replica
 * resolver (reroute), the parameter reducers by name (degrade) and an executor for background work
 * (reroute's lookups, defer's releases). Immutable; built by {@link #builder()}.
 *
 * @param clock          the one time source: monotonic nanoseconds for the modules, wall time for events
 * @param replicaResolver the Naming Service lookup, or null (reroute then falls back)
 * @param reducers       parameter reducers by the name the SLA's {@code reducer} uses
 * @param background     runs background work; a daemon thread per module when null
 */
public record ModuleServices(Clock clock, ReplicaResolver replicaResolver,
                             Map<String, ParameterReducer> reducers, Executor background) {
    public ModuleServices {
        Objects.requireNonNull(clock, "clock");
        reducers = Map.copyOf(reducers);
    }

    /** @return the clock's monotonic nanoseconds, as the modules take time */
    public LongSupplier nanoClock() {
        return clock::nanoTime;
    }

    /** @return services on the system clock, with nothing else. */
    public static ModuleServices defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Optional<ReplicaResolver> resolver() {
        return Optional.ofNullable(replicaResolver);
    }

    /** Builds {@link ModuleServices}. */
    public static final class Builder {
        private Clock clock = Clock.system();
        private ReplicaResolver replicaResolver;
        private final Map<String, ParameterReducer> reducers = new HashMap<>();
        private Executor background;

        private Builder() {
        }

        /** The clock (the system clock by default; tests pass a {@link org.irmi.monitors.ManualClock}). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public Builder replicaResolver(ReplicaResolver resolver) {
            replicaResolver = Objects.requireNonNull(resolver, "resolver");
            return this;
        }

        /** Registers an application's parameter reducer under the name an SLA refers to. */
        public Builder reducer(String name, ParameterReducer reducer) {
            reducers.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(reducer));
            return this;
        }

        /** Background executor (tests pass {@code Runnable::run}). */
        public Builder background(Executor executor) {
            background = Objects.requireNonNull(executor, "executor");
            return this;
        }

        public ModuleServices build() {
            return new ModuleServices(clock, replicaResolver, reducers, background);
        }
    }
}
