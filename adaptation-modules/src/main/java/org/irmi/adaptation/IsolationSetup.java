package org.irmi.adaptation;

import org.irmi.isolation.IsolationRuntime;
import org.irmi.sla.IsolationPointsConfig;
import org.irmi.sla.Sla;

/**
 * Builds the isolation points an SLA asks for, with their adaptation modules:
 * <pre>{@code
 * IsolationRuntime rt = IsolationSetup.fromSla(sla, services)
 *     .localLoad(...).edges(detector, samples)   // what the ORB measures; the clock is services.clock()
 *     .build();
 * }</pre>
 * Disabled points ({@code enabled: false}) are left out.
 */
public final class IsolationSetup {
    private IsolationSetup() {
    }

    /** @return a runtime builder holding every enabled point of the SLA and its module. */
    public static IsolationRuntime.Builder fromSla(Sla sla, ModuleServices services) {
        IsolationRuntime.Builder b = IsolationRuntime.builder();
        b.clock(services.clock());
        IsolationPointsConfig ip = sla.isolationPoints();
        ip.slowClient().filter(org.irmi.sla.SlowClientConfig::enabled).ifPresent(sc ->
                b.slowClient(sc, sla.monitors(),
                        AdaptationModules.fromAction(sc.action(), services)));
        ip.poison().filter(org.irmi.sla.PoisonConfig::enabled).ifPresent(pc ->
                b.poison(pc, AdaptationModules.fromAction(pc.action(), services)));
        ip.crosstalk().filter(org.irmi.sla.CrosstalkConfig::enabled).ifPresent(cc ->
                b.crosstalk(cc));
        return b;
    }
}
