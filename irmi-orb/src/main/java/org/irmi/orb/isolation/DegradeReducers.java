package org.irmi.orb.isolation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import org.irmi.adaptation.ModuleServices;
import org.irmi.isolation.ParameterReducer;
import org.irmi.sla.ActionConfig;
import org.irmi.sla.DegradeConfig;
import org.irmi.sla.Sla;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application's parameter reducers by the name an SLA's {@code degrade} action gives
 * ({@code reducer: thumbnail}). The ORB builds its isolation points in {@code ORB.init}, before the
 * application can hand anything over, so each degrade module is given a reducer that looks its name
 * up here at each degraded call: registering before or after the SLA names it both work, and the
 * registration holds across SLA reloads. Until a reducer is registered under a name the SLA uses,
 * degraded calls go out with their arguments unchanged.
 *
 * <p>THREADING: any thread; a reducer runs on the calling thread of each degraded call.
 */
final class DegradeReducers {

    // the glue's log category, as before OrbIsolation was split
    private static final Logger LOG = LoggerFactory.getLogger(OrbIsolation.class);

    private final Map<String, ParameterReducer> reducers = new ConcurrentHashMap<>();

    /** Registers (or replaces) the reducer under {@code name}. */
    void register(String name, ParameterReducer reducer) {
        reducers.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(reducer, "reducer"));
    }

    /**
     * @return {@code services} with a reducer for every degrade action of the SLA (fallbacks too)
     *         that reads the registered reducers; {@code services} itself when the SLA degrades nothing
     */
    ModuleServices bindTo(ModuleServices services, Sla sla) {
        Set<String> names = new TreeSet<>();
        List<ActionConfig> actions = new ArrayList<>();
        sla.isolationPoints().slowClient().ifPresent(sc -> actions.add(sc.action()));
        sla.isolationPoints().poison().ifPresent(pc -> actions.add(pc.action()));
        for (ActionConfig a : actions) {
            for (Optional<ActionConfig> x = Optional.of(a); x.isPresent(); x = x.get().fallback()) {
                if (x.get().module() instanceof DegradeConfig dg) {
                    names.add(dg.reducer());
                }
            }
        }
        if (names.isEmpty()) {
            return services;
        }
        Map<String, ParameterReducer> byName = new HashMap<>(services.reducers());
        for (String name : names) {
            if (!reducers.containsKey(name)) {
                LOG.warn("irmi SLA: degrade reducer `{}` is not registered yet; register it with "
                        + "OrbIsolation.of(irmiOrb).get().registerReducer(\"{}\", reducer). Until then degraded "
                        + "calls go out unchanged", name, name);
            }
            byName.putIfAbsent(name, (operation, arguments) -> {
                ParameterReducer r = reducers.get(name);
                return r == null ? arguments : r.reduce(operation, arguments);
            });
        }
        return new ModuleServices(services.clock(), services.replicaResolver(), byName, services.background());
    }
}
