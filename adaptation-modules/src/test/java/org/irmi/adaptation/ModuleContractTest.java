package org.irmi.adaptation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.irmi.isolation.AdaptationModule;
import org.irmi.isolation.Decision;
import org.irmi.isolation.ModuleSettings;
import org.irmi.monitors.ManualClock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The SPI's contract, run against every module found on the class path by name. */
class ModuleContractTest {
    private static final ManualClock CLOCK = new ManualClock();

    /** The smallest valid parameters of each built-in. */
    private static final Map<String, Map<String, Object>> MINIMAL = Map.of(
            "reroute", Map.of("replicas", "irmi/sink.replicas"),
            "degrade", Map.of("reducer", "halve"),
            "throttle", Map.of("rate", "5/s".replace("/s", "")),
            "defer", Map.of("manualTick", true));

    static Stream<String> names() {
        return AdaptationModules.names().stream();
    }

    private static AdaptationModule create(String name) {
        ModuleServices services = ModuleServices.builder().nanoClock(CLOCK::nanoTime)
                .background(Runnable::run)
                .replicaResolver(n -> List.of(new ReplicaResolver.Replica("r1", "IOR:r1")))
                .reducer("halve", (op, args) -> new Object[]{"half"}).build();
        return AdaptationModules.create(new ModuleSettings(name, MINIMAL.getOrDefault(name, Map.of()),
                Map.of(ModuleServices.class, services), CLOCK::nanoTime, null));
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
    void shouldRefuseAnUnknownParameterByName(String name) {
        ModuleSettings s = new ModuleSettings(name, Map.of("treshold", 1), Map.of(),
                CLOCK::nanoTime, null);
        assertThatThrownBy(() -> AdaptationModules.create(s))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("treshold");
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
    }
}
