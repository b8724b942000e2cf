package org.irmi.adaptation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.irmi.isolation.AdaptationModule;
import org.irmi.isolation.Decision;
import org.irmi.isolation.IsolationRuntime;
import org.irmi.isolation.MinorCodes;
import org.irmi.sla.SystemExceptionKind;
import org.irmi.monitors.ManualClock;
import org.irmi.sla.ActionConfig;
import org.irmi.sla.Sla;
import org.irmi.sla.SlaException;
import org.junit.jupiter.api.Test;

class AdaptationModulesTest {
    private final ManualClock clock = new ManualClock();

    /** @return the poison point's action of {@code s.yaml}, whose poison section is {@code poisonLines}. */
    private static ActionConfig poisonAction(String poisonLines) {
        return Sla.parse("service: s\nisolationPoints:\n  poison:\n" + poisonLines, "s.yaml")
                .isolationPoints().poison().orElseThrow().action();
    }

    @Test
    void shouldFindEveryBuiltInByName() {
        assertThat(AdaptationModules.names()).contains("reject", "short-circuit", "reroute", "defer",
                "degrade", "throttle", "adaptive-limit");
    }

    @Test
    void shouldNameAThirdPartyModuleThatIsNotOnTheClassPathAtItsPosition() {
        ActionConfig action = poisonAction("    action: {module: com.acme.hegde, copies: 2}\n");
        assertThatThrownBy(() -> AdaptationModules.fromAction(action, ModuleServices.defaults()))
                .isInstanceOf(SlaException.class)
                .hasMessageStartingWith("s.yaml:4:13: isolationPoints.poison.action.module: "
                        + "unknown adaptation module 'com.acme.hegde'")
                .hasMessageContaining("[com.acme.hedge]");
    }

    @Test
    void shouldBuildABuiltInWithTheValuesTheSlaSet() {
        Sla sla = Sla.parse("""
                service: s
                isolationPoints:
                  slowClient:
                    action: {module: throttle, rate: 10/s, burst: 2}
                """, "s.yaml");
        AdaptationModule m = AdaptationModules.fromAction(
                sla.isolationPoints().slowClient().orElseThrow().action(),
                ModuleServices.builder().clock(clock).build());
        long now = clock.nanoTime();
        assertThat(m.decide(Triggers.slowClient(now))).isEqualTo(Decision.proceed());
        assertThat(m.decide(Triggers.slowClient(now))).isEqualTo(Decision.proceed());
        // burst 2 spent: the next tokens come every 1/10 s, and no further than burst / rate ahead
        assertThat(m.decide(Triggers.slowClient(now))).isEqualTo(new Decision.Throttle(100_000_000L));
        assertThat(m.decide(Triggers.slowClient(now))).isEqualTo(new Decision.Throttle(200_000_000L));
        assertThat(m.decide(Triggers.slowClient(now))).isInstanceOf(Decision.Reject.class);
    }

    @Test
    void shouldFallBackWhenRerouteFindsNoReplica() {
        Sla sla = Sla.parse("""
                service: s
                isolationPoints:
                  slowClient:
                    action:
                      module: reroute
                      replicas: "irmi/sink.replicas"
                      fallback: {module: reject, kind: NO_RESOURCES, reason: "no replica, no luck"}
                """, "s.yaml");
        ModuleServices services = ModuleServices.builder().clock(clock)
                .background(Runnable::run).replicaResolver(name -> List.of()).build();
        AdaptationModule m = AdaptationModules.fromAction(
                sla.isolationPoints().slowClient().orElseThrow().action(), services);
        Decision.Reject r = (Decision.Reject) m.decide(Triggers.slowClient(clock.nanoTime()));
        assertThat(r.kind()).isEqualTo(SystemExceptionKind.NO_RESOURCES);
        assertThat(r.minor()).isEqualTo(MinorCodes.SLOW_CLIENT_REJECTED);
        assertThat(r.reason()).startsWith("no replica, no luck");
    }

    @Test
    void shouldLookUpReplicasInTheNamingServiceTheSlaNames() {
        Sla sla = Sla.parse("""
                service: s
                isolationPoints:
                  slowClient:
                    action:
                      module: reroute
                      replicas: "irmi/sink.replicas"
                      namingService: "corbaloc:iiop:127.0.0.1:2809/NameService"
                """, "s.yaml");
        List<String> askedAt = new java.util.concurrent.CopyOnWriteArrayList<>();
        Object replica = new Object();
        ReplicaResolver resolver = new ReplicaResolver() {
            @Override
            public List<Replica> resolve(String name) {
                askedAt.add("default:" + name);
                return List.of();
            }

            @Override
            public java.util.Optional<ReplicaResolver> at(String url) {
                return java.util.Optional.of(name -> {
                    askedAt.add(url + ":" + name);
                    return List.of(new Replica(name + "/1", replica));
                });
            }
        };
        ModuleServices services = ModuleServices.builder().clock(clock)
                .background(Runnable::run).replicaResolver(resolver).build();
        AdaptationModule m = AdaptationModules.fromAction(
                sla.isolationPoints().slowClient().orElseThrow().action(), services);
        Decision d = m.decide(Triggers.slowClient(clock.nanoTime()));
        assertThat(d).isInstanceOfSatisfying(Decision.Forward.class, f -> assertThat(f.target()).isSameAs(replica));
        assertThat(askedAt).containsExactly("corbaloc:iiop:127.0.0.1:2809/NameService:irmi/sink.replicas");
    }

    @Test
    void shouldRefuseANamingServiceTheResolverCannotUseWithTheParameterNamed() {
        Sla sla = Sla.parse("""
                service: s
                isolationPoints:
                  slowClient:
                    action:
                      module: reroute
                      replicas: "irmi/sink.replicas"
                      namingService: "corbaloc:iiop:127.0.0.1:2809/NameService"
                """, "s.yaml");
        ModuleServices services = ModuleServices.builder().clock(clock)
                .background(Runnable::run).replicaResolver(name -> List.of()).build();
        assertThatThrownBy(() -> AdaptationModules.fromAction(sla.isolationPoints().slowClient().orElseThrow().action(),
                services)).hasMessageContaining("`namingService`").hasMessageContaining("corbaloc:iiop:127.0.0.1:2809");
    }

    @Test
    void shouldBuildEveryEnabledPointOfAnSla() {
        Sla sla = Sla.parse("""
                service: s
                isolationPoints:
                  slowClient: {action: {module: short-circuit}}
                  poison: {action: {module: reject, kind: TRANSIENT, minorCode: 0x49524001}}
                  crosstalk: {enabled: false}
                """, "s.yaml");
        IsolationRuntime rt = IsolationSetup.fromSla(sla, ModuleServices.builder()
                .clock(clock).build()).build();
        assertThat(rt.slowClient()).isPresent();
        assertThat(rt.poison()).isPresent();
        assertThat(rt.crosstalkConfig()).isEmpty();
        rt.poison().get().filter("poison", clock.nanoTime());
        Decision d = rt.poison().get().onRequestHeader(new org.irmi.isolation.IncomingRequest(1, 1,
                "127.0.0.1:1", "k", "poison", 10, true, null, null));
        assertThat(((Decision.Reject) d).minor()).isEqualTo(MinorCodes.POISON_FILTERED);
    }

    @Test
    void shouldFindAThirdPartyModuleAndPassItsParametersThrough() {
        AdaptationModule m = AdaptationModules.fromAction(
                poisonAction("    action: {module: com.acme.hedge, copies: 2}\n"), ModuleServices.defaults());
        assertThat(m.name()).isEqualTo("com.acme.hedge");
        assertThat(((Decision.Reject) m.decide(Triggers.poison(0))).reason()).isEqualTo("hedged x2");
    }

    @Test
    void shouldReportAThirdPartyModulesOwnCheckAtTheParametersPosition() {
        ActionConfig action = poisonAction("    action:\n      module: com.acme.hedge\n      copies: 20\n");
        assertThatThrownBy(() -> AdaptationModules.fromAction(action, ModuleServices.defaults()))
                .isInstanceOf(SlaException.class)
                .hasMessage("s.yaml:6:15: isolationPoints.poison.action.copies: must be between 1 and 10, was 20");
    }
}
