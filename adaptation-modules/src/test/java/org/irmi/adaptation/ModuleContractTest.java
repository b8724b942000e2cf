package org.irmi.adaptation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.irmi.isolation.AdaptationModule;
import org.irmi.isolation.Decision;
import org.irmi.monitors.ManualClock;
import org.irmi.sla.Sla;
import org.irmi.sla.SlaException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The SPI's contract, run against every module found by name (the built-ins and the third-party
 * ones on the class path), each built the way an SLA builds it: from the action map of an SLA file.
 */
class ModuleContractTest {
    private static final ManualClock CLOCK = new ManualClock();

    /** The smallest valid parameters of each module, as written in an action map. */
    private static final Map<String, String> MINIMAL = Map.of(
            "reroute", ", replicas: irmi/sink.replicas",
            "degrade", ", reducer: halve",
            "throttle", ", rate: 5/s");

    static Stream<String> names() {
        return AdaptationModules.names().stream();
    }

    private static AdaptationModule create(String name) {
        return create(name, MINIMAL.getOrDefault(name, ""));
    }

    private static AdaptationModule create(String name, String params) {
        ModuleServices services = ModuleServices.builder().clock(CLOCK)
                .background(Runnable::run)
                .replicaResolver(n -> List.of(new ReplicaResolver.Replica("r1", "IOR:r1")))
                .reducer("halve", (op, args) -> new Object[]{"half"}).build();
        Sla sla = Sla.parse("service: s\nisolationPoints:\n  slowClient:\n    action: {module: " + name
                + params + "}\n", "contract.yaml");
        return AdaptationModules.fromAction(sla.isolationPoints().slowClient().orElseThrow().action(),
                services);
    }

    @ParameterizedTest
    @MethodSource("names")
    void shouldCarryTheNameItIsFoundBy(String name) {
        assertThat(create(name).name()).isEqualTo(name);
    }

    @ParameterizedTest
    @MethodSource("names")
    void shouldDecideForTheSlowClientPoint(String name) {
        Decision d = create(name).decide(Triggers.slowClient(CLOCK.nanoTime()));
        assertThat(d).isNotNull();
    }

    @ParameterizedTest
    @MethodSource("names")
    void shouldGiveTheReaderThreadOnlyDecisionsItCanEnforce(String name) {
        Decision d = create(name).decide(Triggers.poison(CLOCK.nanoTime()))
                .enforceableOnReaderThread();
        assertThat(d.action()).isIn(Decision.Action.PROCEED, Decision.Action.REJECT,
                Decision.Action.FORWARD);
    }

    @ParameterizedTest
    @MethodSource("names")
    void shouldRefuseAnUnknownParameterByNameAtItsPosition(String name) {
        assertThatThrownBy(() -> create(name, MINIMAL.getOrDefault(name, "") + ", treshold: 1"))
                .isInstanceOf(SlaException.class).hasMessageContaining("unknown key 'treshold'")
                .hasMessageStartingWith("contract.yaml:4:");
    }

    @ParameterizedTest
    @MethodSource("names")
    void shouldDecideConcurrentlyWithoutFailing(String name) throws Exception {
        AdaptationModule m = create(name);
        Thread[] threads = new Thread[4];
        java.util.concurrent.atomic.AtomicInteger failures = new java.util.concurrent.atomic.AtomicInteger();
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 500; i++) {
                    try {
                        Decision d = m.decide(Triggers.slowClient(CLOCK.nanoTime()));
                        if (d instanceof Decision.Proceed p) {
                            p.listener().onSuccess(1_000_000);
                        }
                    } catch (RuntimeException e) {
                        failures.incrementAndGet();
                    }
                }
            });
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join(10_000);
        }
        assertThat(failures.get()).isZero();
        if (m instanceof AutoCloseable c) {
            c.close();
        }
    }
}
